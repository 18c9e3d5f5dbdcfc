// The published MCP schema files, for tests: read only through the resolver of
// codegen/ (MCP_SCHEMA_DIR, the cache, the pinned download), so tests see exactly
// the bytes schema/sources.json pins, never a copy kept in the repository.
import { fileURLToPath } from "node:url";
import type { SchemaDocument } from "../../codegen/json.js";
import { resolveAll, resolvePinned } from "../../codegen/resolve.js";
import { allPinnedFiles, pinnedExampleFiles, pinnedSchemaFile, readSources, revisionsNewestFirst } from "../../codegen/sources.js";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Every revision schema/sources.json pins, newest first: the one list tests iterate (never a list of their own). */
export const PINNED_REVISIONS: readonly string[] = revisionsNewestFirst(readSources(REPO_ROOT));

/** One of the spec's example messages. */
export interface PublishedExample {
  /** The schema definition it is an example of (its folder name). */
  definition: string;
  /** Its file name without `.json`. */
  name: string;
  value: unknown;
}

function pinnedRevision(revision: string) {
  const pinned = readSources(REPO_ROOT).revisions[revision];
  if (!pinned) throw new Error(`schema/sources.json pins no revision ${revision}`);
  return pinned;
}

const bytesOf = new Map<string, Promise<Buffer>>();

/** The raw bytes of a revision's pinned schema.json. */
export function publishedSchemaBytes(revision: string): Promise<Buffer> {
  let bytes = bytesOf.get(revision);
  if (!bytes) {
    bytes = resolvePinned(pinnedSchemaFile(REPO_ROOT, revision, pinnedRevision(revision))).then((file) => file.bytes);
    bytesOf.set(revision, bytes);
  }
  return bytes;
}

/** A fresh parse of a revision's pinned schema.json. */
export async function publishedSchema(revision: string): Promise<SchemaDocument> {
  return JSON.parse((await publishedSchemaBytes(revision)).toString("utf8")) as SchemaDocument;
}

/** Every pinned example message of a revision, sorted by definition and name. */
export async function publishedExamples(revision = "2026-07-28"): Promise<PublishedExample[]> {
  const files = await resolveAll(pinnedExampleFiles(REPO_ROOT, revision, pinnedRevision(revision)));
  return files.map(({ file, bytes }) => {
    const [definition, name] = file.name.slice(`${revision}/examples/`.length).split("/") as [string, string];
    return { definition, name: name.replace(/\.json$/, ""), value: JSON.parse(bytes.toString("utf8")) as unknown };
  });
}

/**
 * Resolves every pinned file (both schemas, every example) once, so a run
 * without any copy stops before the first test, in one line.
 *
 * @returns how many files are in place.
 */
export async function ensurePublishedFiles(): Promise<number> {
  return (await resolveAll(allPinnedFiles(REPO_ROOT, readSources(REPO_ROOT)))).length;
}
