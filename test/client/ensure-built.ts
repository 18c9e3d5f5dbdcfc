// Tests that run compiled output need dist/. `npm test` builds before vitest;
// a bare `vitest run` may not have, so build once, under a lock, because test
// files run in parallel and the build starts by deleting dist/.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Makes sure `dist/<file>` exists, building the package when it does not. */
export function ensureBuilt(file: string): void {
  const target = join(root, "dist", file);
  if (existsSync(target)) return;
  const lock = join(root, "node_modules", ".mcp-roundtrip-build-lock");
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`gave up waiting for another build (remove ${lock} if it is stale)`);
      pause(100);
    }
  }
  try {
    if (existsSync(target)) return;
    const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
