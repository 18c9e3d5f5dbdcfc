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
const BUILD_INPUTS = ["runtime", "generated", "examples", "drill", "package.json", "tsconfig.build.json", "tsconfig.base.json"];

/** The newest modification time under `path`, in milliseconds. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when `target` is missing or older than a build input. */
function needsBuild(target: string): boolean {
  if (!existsSync(target)) return true;
  const built = statSync(target).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(join(root, input)) > built);
}

/**
 * Makes sure `dist/<file>` exists and is newer than every source, building
 * the package when it is not. Every caller goes through this check, so a
 * stale dist/ is rebuilt once, under the lock, before any test runs from it.
 */
export function ensureBuilt(file: string): void {
  const target = join(root, "dist", file);
  if (!needsBuild(target)) return;
  underLock(join(root, "node_modules", ".mcp-roundtrip-build-lock"), "build", () => {
    if (!needsBuild(target)) return;
    const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr}`);
    // A target the build does not make would send every later caller into a rebuild of dist/ that other
    // test files are reading from: name it instead.
    if (!existsSync(target)) throw new Error(`ensureBuilt("${file}"): the build made no dist/${file}; name a file it makes`);
  });
}

/**
 * Runs `work` holding the directory lock `lock` (test files run in parallel
 * processes; `mkdir` is atomic), waiting up to two minutes for another
 * holder doing the same `what`.
 */
export function underLock<T>(lock: string, what: string, work: () => T): T {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`gave up waiting for another ${what} (remove ${lock} if it is stale)`);
      pause(100);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
