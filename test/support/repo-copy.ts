// A temp copy of this repository for the tests that add a revision the way a
// maintainer would (`npm run codegen -- --add-revision`) and then use the
// copy's runtime: the copy, a schema cache of its own holding the pinned
// revisions, codegen run on it with its output captured, the copy's modules
// imported, and a digest of its files to say what a command changed.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { vi } from "vitest";
import { main } from "../../codegen/main.js";
import { putInCache, sha256Hex } from "../../codegen/resolve.js";
import { PINNED_REVISIONS, publishedSchemaBytes, REPO_ROOT } from "./schema.js";

/** What the generator, the runtime and a typecheck of them read. */
const COPIED = ["schema", "generated", "runtime", "package.json", "tsconfig.json", "tsconfig.base.json"];

/** A revision `years` after the newest pinned one, on `monthDay`: newer than any pin, whatever the repository gains. */
export function revisionAfterNewest(monthDay: string, years = 1): string {
  return `${Number(PINNED_REVISIONS[0]!.slice(0, 4)) + years}-${monthDay}`;
}

/** Every file under `dir` (relative, `/`-separated) → its sha256; `skip` names top-level entries left out. */
export function treeDigest(dir: string, skip: string[] = []): Map<string, string> {
  const digests = new Map<string, string>();
  const visit = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      const name = relative(dir, full).split("\\").join("/");
      if (skip.includes(name)) continue;
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) digests.set(name, sha256Hex(readFileSync(full)));
    }
  };
  visit(dir);
  return digests;
}

/** The paths whose content differs between two digests (added, removed or changed), sorted. */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}

/** Runs codegen's main() on the repository at `root`, capturing what it prints. */
export async function runCodegen(root: string, args: string[]): Promise<{ code: number; output: string }> {
  const out: string[] = [];
  const spies = (["log", "warn", "error"] as const).map((level) => vi.spyOn(console, level).mockImplementation((...parts) => void out.push(parts.join(" "))));
  try {
    return { code: await main(root, args), output: out.join("\n") };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** Imports a module of the copy at `root` (TypeScript, through vitest's transform). */
export const importFrom = <T>(root: string, path: string): Promise<T> => import(pathToFileURL(join(root, path)).href) as Promise<T>;

/**
 * Copies the repository into `work/repo` under a fresh temp folder: what
 * codegen and the runtime read, plus `extra` top-level entries (`scripts` to
 * build it), node_modules shared read-only, and a schema cache of its own
 * holding the pinned revisions (as on a machine that ran the tests), which
 * codegen is pointed at instead of MCP_SCHEMA_DIR until {@link removeCopy}.
 */
export async function copyRepository(prefix: string, extra: string[] = []): Promise<{ work: string; root: string }> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const root = join(work, "repo");
  copyRuntimeInto(REPO_ROOT, root, extra);
  for (const revision of PINNED_REVISIONS) {
    const bytes = await publishedSchemaBytes(revision);
    putInCache(join(work, "cache"), sha256Hex(bytes), bytes);
  }
  vi.stubEnv("MCP_SCHEMA_CACHE_DIR", join(work, "cache"));
  vi.stubEnv("MCP_SCHEMA_DIR", "");
  return { work, root };
}

/** Copies what codegen and the runtime read (plus `extra`) from `from` to `to`, node_modules linked. */
export function copyRuntimeInto(from: string, to: string, extra: string[] = []): void {
  for (const entry of [...COPIED, ...extra]) cpSync(join(from, entry), join(to, entry), { recursive: true });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(to, "node_modules"), "dir");
}

/** Writes a release's schema.json beside the copy (`work/release/`), as a maintainer would have it; returns its path. */
export function writeRelease(work: string, bytes: Buffer): string {
  mkdirSync(join(work, "release"), { recursive: true });
  const path = join(work, "release", "schema.json");
  writeFileSync(path, bytes);
  return path;
}

/** Removes a copy made by {@link copyRepository} and undoes the environment it set. */
export function removeCopy(work: string): void {
  vi.unstubAllEnvs();
  rmSync(work, { recursive: true, force: true });
}
