// Tests that run compiled output need dist/. `npm test` builds before vitest;
// a bare `vitest run` may not have, so build once, under a lock, because test
// files run in parallel and the build starts by deleting dist/.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** What the build compiles or copies into dist/. */
const BUILD_INPUTS = ["runtime", "generated", "examples", "package.json", "tsconfig.build.json", "tsconfig.base.json"];

/** The newest modification time under `path`, in milliseconds. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when `target` is missing, or (with `fresh`) older than a build input. */
function needsBuild(target: string, fresh: boolean): boolean {
  if (!existsSync(target)) return true;
  if (!fresh) return false;
  const built = statSync(target).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(join(root, input)) > built);
}

/**
 * Makes sure `dist/<file>` exists, building the package when it does not.
 * With `fresh`, also rebuilds when a source is newer than that file, for
 * tests that check the whole published shape rather than one entry.
 */
export function ensureBuilt(file: string, options: { fresh?: boolean } = {}): void {
  const target = join(root, "dist", file);
  const fresh = options.fresh ?? false;
  if (!needsBuild(target, fresh)) return;
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
    if (!needsBuild(target, fresh)) return;
    const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
