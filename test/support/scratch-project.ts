// A scratch project that installs the packed tarball the way a user's project
// does: `npm pack`, then `npm install ./mcp-roundtrip-<version>.tgz` in an empty
// ESM project, so only what package.json "files" ships is there. The tarball
// test uses it; the doc tests can too (compile snippets in `dir`, where
// node_modules/mcp-roundtrip is the installed package, not the repo). One
// `npm pack` per test run: the first project packs into the run's folder
// (global-setup.ts), under a lock, and the others copy that tarball.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { inject } from "vitest";
import { ensureBuilt, root, underLock } from "../client/ensure-built.js";

/** A project in a temp folder with the packed package installed. */
export interface ScratchProject {
  /** The project folder: package.json (`"type": "module"`) and node_modules/. */
  dir: string;
  /** The installed package, `<dir>/node_modules/mcp-roundtrip`. */
  packageDir: string;
  /** The tarball `npm pack` wrote (inside `dir`). */
  tarball: string;
  /** How the dependencies were found: from npm's cache alone, or with the registry as a fallback. */
  install: "offline" | "prefer-offline";
  /** Seconds spent packing and installing. */
  seconds: number;
  /** Deletes the folder. */
  remove(): void;
}

/** Runs npm in `cwd`; throws with npm's own output when it fails. */
function npm(args: string[], cwd: string): string {
  const result = spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
  if (result.status !== 0) throw new Error(`npm ${args.join(" ")} failed (exit ${result.status}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** The `.tgz` in `dir`, if `npm pack` wrote one there. */
const tarballIn = (dir: string) => readdirSync(dir).find((name) => name.endsWith(".tgz"));

/**
 * The path of this run's packed tarball: packed now by the first caller (under
 * a lock, since test files run in parallel processes), found by the others.
 * Outside a vitest run with the global setup, it packs into `fallbackDir`.
 */
function packedTarball(fallbackDir: string): string {
  const shared = inject("packDir") as string | undefined;
  const dir = shared ?? fallbackDir;
  return underLock(join(dir, ".pack-lock"), "npm pack", () => {
    if (tarballIn(dir) === undefined) npm(["pack", "--ignore-scripts", "--pack-destination", dir], root);
    const tarball = tarballIn(dir);
    if (tarball === undefined) throw new Error(`npm pack wrote no .tgz into ${dir}`);
    return join(dir, tarball);
  });
}

/**
 * Builds the package if dist/ is stale, packs it (once per test run), and installs the tarball
 * with `extraPackages` (e.g. optional peers a test imports) into a new project.
 * The install uses npm's cache only (`--offline`); when the cache lacks a
 * dependency it retries with `--prefer-offline`, which may ask the registry.
 *
 * @param extraPackages - more install specs, exact versions (`redis@6.3.1`)
 * @throws Error when packing or both installs fail, with npm's output
 */
export function createScratchProject(extraPackages: readonly string[] = []): ScratchProject {
  const started = performance.now();
  ensureBuilt("runtime/entries/server.js");
  const dir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-scratch-"));
  try {
    const packed = packedTarball(dir);
    const tarball = basename(packed);
    if (packed !== join(dir, tarball)) copyFileSync(packed, join(dir, tarball));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }, null, 2));
    mkdirSync(join(dir, "node_modules"));
    const install = (mode: ScratchProject["install"]) =>
      npm(["install", `--${mode}`, "--no-audit", "--no-fund", "--no-package-lock", `./${tarball}`, ...extraPackages], dir);
    let mode: ScratchProject["install"] = "offline";
    try {
      install(mode);
    } catch (error) {
      console.warn(`scratch project: npm's cache alone could not install (${String(error).split("\n").slice(0, 6).join(" ")}); retrying with --prefer-offline`);
      mode = "prefer-offline";
      install(mode);
    }
    return {
      dir,
      packageDir: join(dir, "node_modules", "mcp-roundtrip"),
      tarball: join(dir, tarball),
      install: mode,
      seconds: (performance.now() - started) / 1000,
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
