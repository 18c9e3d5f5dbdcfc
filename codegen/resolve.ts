import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { isUrl, type PinnedFile } from "./sources.js";

/**
 * Finds the bytes of a pinned file (a revision's schema.json or one of its
 * example messages) and proves they are the pinned ones. Shared by codegen
 * and the tests, so both read exactly what schema/sources.json names:
 *
 * 1. `MCP_SCHEMA_DIR/<name>`, when that variable is set and the file is there;
 * 2. the cache (`MCP_SCHEMA_CACHE_DIR`, else the user cache directory), where
 *    files are kept by their sha256, so every clone and worktree on a machine
 *    shares one copy and a renamed or re-pinned file can never be mistaken;
 * 3. the pinned `source`: a download (or a read, for a path), kept in the
 *    cache once its sha256 checks out.
 *
 * A file whose sha256 differs from its pin is never used, wherever it came
 * from; the error names both digests.
 *
 * @module
 */

/** Where a resolved file was found. */
export type Origin = "schema-dir" | "cache" | "source";

/** A pinned file, found and checked. */
export interface ResolvedFile {
  file: PinnedFile;
  bytes: Buffer;
  /** The path or URL the bytes were read from. */
  location: string;
  origin: Origin;
}

/** Where to look; each member defaults to the process environment. */
export interface ResolveOptions {
  /** A folder laid out as `<rev>/schema.json`, `<rev>/examples/…` (default: `MCP_SCHEMA_DIR`). */
  schemaDir?: string | undefined;
  /** The cache folder (default: {@link defaultCacheDir}). */
  cacheDir?: string;
  /** Download timeout per file, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Files downloaded at once by {@link resolveAll} (default 8). */
  concurrency?: number;
}

/** How a reader learns what to do when nothing could be found; every unavailability error ends with it. */
const PROVIDE_HINT =
  "set MCP_SCHEMA_DIR to a folder holding <rev>/schema.json and <rev>/examples/ (a checkout of the specification repository's schema/ folder), or run `npm run schema:fetch` where the network is reachable";

/** A file was found, but its bytes are not the pinned ones. */
export class PinMismatch extends Error {
  override readonly name = "PinMismatch" as const;

  /**
   * @param file - the pinned file.
   * @param location - where the other bytes were read.
   * @param actual - their sha256.
   * @param bytes - the bytes, for a caller that means to adopt them (codegen --accept-new-schema).
   * @param advice - what the reader can do about it, ending the message.
   * @param origin - where the other bytes were found: MCP_SCHEMA_DIR (a folder the reader chose) or the pinned source.
   */
  constructor(
    readonly file: PinnedFile,
    readonly location: string,
    readonly actual: string,
    readonly bytes: Buffer,
    readonly advice: string,
    readonly origin: Exclude<Origin, "cache">,
  ) {
    super(`${location} has sha256 ${actual}, but schema/sources.json pins ${file.sha256} for ${file.name}: ${advice}`);
  }
}

/** No copy of a pinned file could be found: MCP_SCHEMA_DIR unset or without it, no cache entry, source unreachable. */
export class SourcesUnavailable extends Error {
  override readonly name = "SourcesUnavailable" as const;

  constructor(
    readonly file: PinnedFile,
    readonly reasons: string[],
  ) {
    super(`cannot find ${file.name} (sha256 ${file.sha256.slice(0, 12)}…): ${reasons.join("; ")}. To provide it, ${PROVIDE_HINT}.`);
  }
}

/** Lowercase hex sha256 of `bytes`. */
export const sha256Hex = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");

/**
 * The cache folder: `MCP_SCHEMA_CACHE_DIR`, else `mcp-roundtrip/schema` in the
 * user cache directory (`$XDG_CACHE_HOME` or `~/.cache`; `~/Library/Caches`
 * on macOS; `%LOCALAPPDATA%` on Windows). Outside node_modules on purpose:
 * `npm ci` empties node_modules, and a fresh clone should not need the
 * network again for files this machine already checked.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCP_SCHEMA_CACHE_DIR) return resolve(env.MCP_SCHEMA_CACHE_DIR);
  let base: string;
  if (process.platform === "win32") base = env.LOCALAPPDATA || join(homedir(), "AppData", "Local");
  else if (process.platform === "darwin") base = join(homedir(), "Library", "Caches");
  else base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "mcp-roundtrip", "schema");
}

/** The cache path of a file with this sha256. */
export function cachePath(cacheDir: string, sha256: string): string {
  return join(cacheDir, "sha256", sha256);
}

/**
 * Keeps `bytes` in the cache under their sha256 (written to a temporary name,
 * then renamed, so a reader never sees half a file). Best effort: a cache that
 * cannot be written only means the next run looks again.
 */
export function putInCache(cacheDir: string, sha256: string, bytes: Uint8Array): void {
  const path = cachePath(cacheDir, sha256);
  if (existsSync(path)) return;
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch {
    // A read-only home or a full disk: resolution still works, it just does not remember.
  }
}

/** Connection failures worth one more try: the peer or a proxy dropped a (reused) connection. */
const DROPPED_CONNECTION = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET"]);

/**
 * Reads a file from a URL (with a timeout per attempt) or a path; throws with
 * a short reason. A download whose connection was dropped is tried once more;
 * an HTTP status, a timeout or an unknown host is final.
 */
export async function readLocation(location: string, timeoutMs = 30_000): Promise<Buffer> {
  if (!isUrl(location)) return readFileSync(location);
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(location, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
    } catch (error) {
      const code = (error as { cause?: { code?: string } })?.cause?.code;
      if (attempt < 2 && code !== undefined && DROPPED_CONNECTION.has(code)) continue;
      throw error;
    }
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    return Buffer.from(await response.arrayBuffer());
  }
}

/** A short reason for a failed read, without a stack: `ENOENT`, `HTTP 404`, `ENOTFOUND host`. */
export function describeReadError(error: unknown): string {
  const failure = error as { code?: string; message?: string; name?: string; cause?: { code?: string; message?: string } };
  if (failure?.name === "TimeoutError") return "timed out";
  if (failure?.code) return failure.code;
  const cause = failure?.cause;
  if (cause?.code) return cause.message?.includes(cause.code) ? cause.message : `${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  return failure?.message ?? String(error);
}

/** How to adopt other bytes for a pinned file: codegen rewrites a schema pin; example pins are edited by hand. */
function adoptAdvice(file: PinnedFile): string {
  return file.name.endsWith("/schema.json")
    ? "adopt it with `npm run codegen -- --accept-new-schema`"
    : `pin its new sha256 under "examples" in schema/sources.json`;
}

/**
 * Finds one pinned file (see the module comment for the order).
 *
 * @throws {PinMismatch} when MCP_SCHEMA_DIR or the source holds other bytes than the pinned ones.
 * @throws {SourcesUnavailable} when no copy can be found anywhere.
 */
export async function resolvePinned(file: PinnedFile, options: ResolveOptions = {}): Promise<ResolvedFile> {
  const schemaDir = "schemaDir" in options ? options.schemaDir : process.env.MCP_SCHEMA_DIR || undefined;
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const reasons: string[] = [];

  if (schemaDir) {
    const location = resolve(schemaDir, ...file.name.split("/"));
    if (existsSync(location)) {
      const bytes = readFileSync(location);
      const actual = sha256Hex(bytes);
      if (actual !== file.sha256) {
        throw new PinMismatch(
          file,
          location,
          actual,
          bytes,
          `MCP_SCHEMA_DIR holds another release; point it at the pinned one, or ${adoptAdvice(file)}`,
          "schema-dir",
        );
      }
      putInCache(cacheDir, file.sha256, bytes);
      return { file, bytes, location, origin: "schema-dir" };
    }
    reasons.push(`MCP_SCHEMA_DIR (${resolve(schemaDir)}) has no ${file.name}`);
  } else {
    reasons.push("MCP_SCHEMA_DIR is not set");
  }

  const cached = cachePath(cacheDir, file.sha256);
  if (existsSync(cached)) {
    const bytes = readFileSync(cached);
    if (sha256Hex(bytes) === file.sha256) return { file, bytes, location: cached, origin: "cache" };
    try {
      rmSync(cached, { force: true }); // damaged on disk: drop it and fetch again
    } catch {
      // A read-only cache keeps its damaged copy; it is never used, since every read is checked.
    }
    reasons.push(`the cached copy in ${cacheDir} was damaged`);
  } else {
    reasons.push(`the cache (${cacheDir}) has no copy`);
  }

  let bytes: Buffer;
  try {
    bytes = await readLocation(file.source, options.timeoutMs);
  } catch (error) {
    reasons.push(`${isUrl(file.source) ? "downloading" : "reading"} ${file.source} failed (${describeReadError(error)})`);
    throw new SourcesUnavailable(file, reasons);
  }
  const actual = sha256Hex(bytes);
  if (actual !== file.sha256) {
    throw new PinMismatch(
      file,
      file.source,
      actual,
      bytes,
      `the published file changed or was tampered with in transit; it was not used or cached (if upstream really changed it, review it and ${adoptAdvice(file)})`,
      "source",
    );
  }
  putInCache(cacheDir, file.sha256, bytes);
  return { file, bytes, location: file.source, origin: "source" };
}

/**
 * Resolves many pinned files, a few downloads at a time, in the given order.
 * Stops at the first failure, so a run without any copy reports one line,
 * not one per file.
 *
 * @throws {PinMismatch} or {SourcesUnavailable}, as {@link resolvePinned}.
 */
export async function resolveAll(files: PinnedFile[], options: ResolveOptions = {}): Promise<ResolvedFile[]> {
  if (files.length === 0) return [];
  const results: ResolvedFile[] = new Array(files.length);
  // The first file alone: when nothing is reachable, that is the only attempt made.
  results[0] = await resolvePinned(files[0]!, options);
  let next = 1;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < files.length) {
      const index = next++;
      try {
        results[index] = await resolvePinned(files[index]!, options);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  if (failure !== undefined) throw failure;
  return results;
}
