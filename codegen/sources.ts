import { readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { isObject } from "./json.js";

/**
 * schema/sources.json: for each protocol revision, where upstream publishes
 * its schema.json and example messages, and the sha256 of the exact bytes this
 * repository generates from and tests against. The files themselves are never
 * committed; `codegen/resolve.ts` finds them (MCP_SCHEMA_DIR, the cache, or a
 * checked download from `source`).
 *
 * @module
 */

/** One pinned file: where it is published and the sha256 of its bytes. */
export interface PinnedSource {
  /** An http(s) URL, or a file path (relative paths are taken from the repository root). */
  source: string;
  /** Lowercase hex sha256 of the file's bytes. */
  sha256: string;
}

/** A revision's example messages: one base address and each file's sha256. */
export interface PinnedExamples {
  /** Base URL or folder ending in `/`; a file's address is `source + name`. */
  source: string;
  /** `"<Definition>/<example>.json"` → sha256. */
  files: Record<string, string>;
}

/** One pinned revision in schema/sources.json. */
export interface PinnedRevision {
  /** Where this revision's files come from (the release commit), in words; rewritten when a pin is adopted. */
  $comment?: string;
  schema: PinnedSource;
  examples?: PinnedExamples;
  /**
   * `false`: generated and validatable, but the runtime has no profile for it (the server
   * answers -32022, the client never offers it). Absent or `true`: served by the profile of
   * its era. See docs/codegen.md, "Adding a revision".
   */
  serve?: boolean;
  /**
   * The breaking changes `--add-revision` found against the SDK's model, one line each. A modern
   * revision with any is served only once its adapter, runtime/adapters/<rev>.ts, exists: codegen
   * derives the served list from this record and that file (docs/codegen.md, "When the revision breaks").
   */
  breaking?: string[];
}

/** The parsed schema/sources.json. */
export interface SourcesFile {
  $comment?: string | string[];
  defaultRevision: string;
  revisions: Record<string, PinnedRevision>;
}

/**
 * One file to resolve, in the shape the resolver takes: its place in an
 * MCP_SCHEMA_DIR-style folder, its absolute source and its sha256.
 */
export interface PinnedFile {
  /** Path inside MCP_SCHEMA_DIR, `/`-separated: `<rev>/schema.json` or `<rev>/examples/<Definition>/<name>.json`. */
  name: string;
  /** An http(s) URL or an absolute file path. */
  source: string;
  sha256: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A protocol revision's name: its release date. */
export const REVISION_NAME = /^\d{4}-\d{2}-\d{2}$/;
const SOURCES_PATH = join("schema", "sources.json");

/** True for an http:// or https:// address. */
export const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/**
 * Reads and checks schema/sources.json under `root`.
 *
 * @throws Error naming the file and the member that does not have the expected shape.
 */
export function readSources(root: string): SourcesFile {
  const path = join(root, SOURCES_PATH);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(`cannot read ${path} (${reason}): run codegen from the repository root, or restore the file with \`git checkout schema/sources.json\``);
  }
  const shape = "expected { defaultRevision, revisions: { <rev>: { schema: { source, sha256 }, examples?: { source, files } } } }";
  if (!isObject(parsed) || typeof parsed.defaultRevision !== "string" || !isObject(parsed.revisions)) {
    throw new Error(`${path}: ${shape}`);
  }
  for (const [revision, entry] of Object.entries(parsed.revisions)) {
    const where = `${path}: revisions["${revision}"]`;
    if (!isObject(entry) || !isPinnedSource(entry.schema)) {
      throw new Error(
        `${where}.schema: expected { source: URL or path, sha256: 64 lowercase hex digits }; ${shape}. ` +
          `Never write a sha256 by hand: \`npm run codegen -- --add-revision ${revision} --schema PATH|URL\` computes it for a new revision, ` +
          `\`npm run codegen -- --revision ${revision} --schema PATH|URL --accept-new-schema\` for a new release of a known one`,
      );
    }
    if (entry.serve !== undefined && typeof entry.serve !== "boolean") {
      throw new Error(`${where}.serve: expected true or false (false: the runtime has no profile for this revision and refuses it)`);
    }
    if (entry.breaking !== undefined && (!Array.isArray(entry.breaking) || !entry.breaking.every((line) => typeof line === "string"))) {
      throw new Error(
        `${where}.breaking: expected a list of strings (the breaking changes --add-revision found; served once runtime/adapters/${revision}.ts exists)`,
      );
    }
    const examples = entry.examples;
    if (examples !== undefined) {
      if (!isObject(examples) || typeof examples.source !== "string" || !examples.source.endsWith("/") || !isObject(examples.files)) {
        throw new Error(`${where}.examples: expected { source: a base URL or folder ending in "/", files: { name: sha256 } }`);
      }
      for (const [name, sha256] of Object.entries(examples.files)) {
        if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256) || !isSafeName(name)) {
          throw new Error(`${where}.examples.files["${name}"]: expected a relative name without ".." mapped to 64 lowercase hex digits`);
        }
      }
    }
  }
  if (!parsed.revisions[parsed.defaultRevision]) {
    throw new Error(`${path}: defaultRevision ${parsed.defaultRevision} is not one of the revisions`);
  }
  return parsed as unknown as SourcesFile;
}

function isPinnedSource(value: unknown): value is PinnedSource {
  return isObject(value) && typeof value.source === "string" && value.source !== "" && typeof value.sha256 === "string" && SHA256_HEX.test(value.sha256);
}

/** A name that stays inside its folder wherever it is joined: no absolute path, no `..`, no backslash. */
function isSafeName(name: string): boolean {
  return name !== "" && !name.startsWith("/") && !name.includes("\\") && name.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/** A source as the resolver takes it: URLs as they are, paths made absolute from the repository root. */
function absoluteSource(root: string, source: string): string {
  return isUrl(source) ? source : resolve(root, source);
}

/** The pinned schema.json of one revision, ready for the resolver. */
export function pinnedSchemaFile(root: string, revision: string, pinned: PinnedRevision): PinnedFile {
  return { name: `${revision}/schema.json`, source: absoluteSource(root, pinned.schema.source), sha256: pinned.schema.sha256 };
}

/** The pinned example messages of one revision (none when it pins none), sorted by name. */
export function pinnedExampleFiles(root: string, revision: string, pinned: PinnedRevision): PinnedFile[] {
  const examples = pinned.examples;
  if (!examples) return [];
  const base = absoluteSource(root, examples.source);
  return Object.keys(examples.files)
    .sort()
    .map((name) => ({
      name: `${revision}/examples/${name}`,
      source: isUrl(base) ? new URL(name, base).href : join(base, ...name.split("/")),
      sha256: examples.files[name]!,
    }));
}

/** Every file pinned for `revisions` (default: all): each schema.json, then its examples. */
export function allPinnedFiles(root: string, sources: SourcesFile, revisions = Object.keys(sources.revisions)): PinnedFile[] {
  return revisions.flatMap((revision) => {
    const pinned = sources.revisions[revision];
    if (!pinned) throw new Error(`no revision ${revision} in schema/sources.json (known: ${Object.keys(sources.revisions).join(", ")})`);
    return [pinnedSchemaFile(root, revision, pinned), ...pinnedExampleFiles(root, revision, pinned)];
  });
}

/**
 * How a schema's location is written into sources.json: a URL as it is; a
 * path inside the repository relative to its root (so the pin holds in every
 * clone); any other path absolute.
 */
export function recordedSource(root: string, location: string): string {
  if (isUrl(location)) return location;
  const absolute = resolve(location);
  const inside = relative(resolve(root), absolute);
  if (inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)) return inside.split(sep).join("/");
  return absolute;
}

/** The revisions of a sources file, newest first (their names are dates, so text order is time order). */
export function revisionsNewestFirst(sources: SourcesFile): string[] {
  return Object.keys(sources.revisions).sort().reverse();
}

/**
 * Says where a pinned file came from, for a revision's `$comment`: the
 * repository and commit of a raw.githubusercontent.com address, else the address.
 */
export function provenanceOf(source: string): string {
  const published = /^https:\/\/raw\.githubusercontent\.com\/([^/]+\/[^/]+)\/([0-9a-f]{7,40})\//.exec(source);
  return published ? `as published by github.com/${published[1]} at commit ${published[2]}` : `read from ${source}`;
}

/** Writes schema/sources.json: revisions newest first, two-space JSON, one final newline. */
function writeSources(root: string, sources: SourcesFile): void {
  const revisions = Object.fromEntries(revisionsNewestFirst(sources).map((revision) => [revision, sources.revisions[revision]!]));
  writeFileSync(join(root, SOURCES_PATH), `${JSON.stringify({ ...sources, revisions }, null, 2)}\n`);
}

function readRaw(root: string): SourcesFile {
  return JSON.parse(readFileSync(join(root, SOURCES_PATH), "utf8")) as SourcesFile;
}

/**
 * Pins one revision's schema to a new source and sha256, keeping the rest of
 * the file (other revisions, examples) as it was, and rewrites the revision's
 * `$comment` to say where the adopted schema came from (the old one named
 * the commit of the previous pin).
 *
 * @throws Error when the revision is not in the file.
 */
export function writeSchemaPin(root: string, revision: string, pin: PinnedSource): void {
  const parsed = readRaw(root);
  const entry = parsed.revisions[revision];
  if (!entry) throw new Error(`${join(root, SOURCES_PATH)}: no revision ${revision}`);
  const examples = entry.examples ? " The examples keep their own pins: when the release changed them too, re-pin them (docs/codegen.md)." : "";
  entry.$comment = `schema.json adopted with \`npm run codegen -- --accept-new-schema\`, ${provenanceOf(pin.source)}.${examples}`;
  entry.schema = { source: pin.source, sha256: pin.sha256 };
  writeSources(root, parsed);
}

/**
 * Adds a revision to schema/sources.json (or replaces its entry), with the
 * digests codegen computed; the other revisions stay as they were.
 */
export function writeRevisionEntry(root: string, revision: string, entry: PinnedRevision): void {
  const parsed = readRaw(root);
  parsed.revisions[revision] = entry;
  writeSources(root, parsed);
}

/** Re-pins one revision's example messages (base address, names, sha256), keeping the rest of the file. */
export function writeExamplesPin(root: string, revision: string, examples: PinnedExamples): void {
  const parsed = readRaw(root);
  const entry = parsed.revisions[revision];
  if (!entry) throw new Error(`${join(root, SOURCES_PATH)}: no revision ${revision}`);
  entry.examples = examples;
  writeSources(root, parsed);
}
