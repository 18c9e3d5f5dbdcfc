// Compiles codegen/ (TypeScript) into the gitignored .codegen-out/ with the
// local tsc, for the npm scripts that run it (codegen, schema:fetch). Node 20
// cannot run .ts directly. The compile is skipped when codegen/ has not
// changed since the last one (a content hash, not mtimes, so checkouts cannot fool it).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bin } from "./run.mjs";

/** The repository root. */
export const root = fileURLToPath(new URL("..", import.meta.url));

function sourceHash(dir) {
  const hash = createHash("sha256");
  const visit = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/\.(ts|json)$/.test(entry.name)) hash.update(full).update("\0").update(readFileSync(full)).update("\0");
    }
  };
  visit(dir);
  hash.update(readFileSync(join(root, "tsconfig.base.json")));
  return hash.digest("hex");
}

/**
 * Compiles codegen/ unless the last compile is still fresh; exits the process
 * when tsc fails. Returns whether the compile was skipped.
 */
export function compileCodegen(step = "codegen") {
  const stampPath = join(root, ".codegen-out", ".source-sha256");
  const wanted = sourceHash(join(root, "codegen"));
  const fresh = existsSync(stampPath) && existsSync(join(root, ".codegen-out", "main.js")) && readFileSync(stampPath, "utf8") === wanted;
  if (!fresh) {
    const compiled = spawnSync(bin("tsc"), ["-p", "codegen/tsconfig.json"], { cwd: root, stdio: "inherit" });
    if (compiled.status !== 0) {
      console.error(`${step}: compiling codegen/ failed (see tsc output above)`);
      process.exit(compiled.status ?? 1);
    }
    writeFileSync(stampPath, wanted);
  }
  return { fresh };
}
