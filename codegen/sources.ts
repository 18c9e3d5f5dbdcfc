import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { isObject, type SchemaDocument } from "./json.js";

/** One pinned revision in schema/sources.json. */
export interface PinnedRevision {
  schema: string;
  sha256: string;
}

/** The parsed schema/sources.json. */
export interface SourcesFile {
  defaultRevision: string;
  revisions: Record<string, PinnedRevision>;
}

/** A loaded schema, with where it came from and its digest. */
export interface LoadedSchema {
  revision: string;
  location: string;
  sha256: string;
  document: SchemaDocument;
}

/** Reads schema/sources.json under `root`. */
export function readSources(root: string): SourcesFile {
  const path = join(root, "schema", "sources.json");
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isObject(parsed) || typeof parsed.defaultRevision !== "string" || !isObject(parsed.revisions)) {
    throw new Error(`${path}: expected { defaultRevision, revisions: { <rev>: { schema, sha256 } } }`);
  }
  return parsed as unknown as SourcesFile;
}

/** Rewrites the pinned sha256 of one revision, keeping the rest of the file as it was. */
export function updatePin(root: string, revision: string, sha256: string): void {
  const path = join(root, "schema", "sources.json");
  const parsed = JSON.parse(readFileSync(path, "utf8")) as SourcesFile;
  const entry = parsed.revisions[revision];
  if (!entry) throw new Error(`${path}: no revision ${revision}`);
  entry.sha256 = sha256;
  writeFileSync(path, `${JSON.stringify(parsed, null, 2)}\n`);
}

/**
 * Where to read a revision's schema from: `--schema` wins, then
 * `MCP_SCHEMA_DIR/<rev>/schema.json`, then the path pinned in sources.json.
 */
export function schemaLocation(root: string, revision: string, pinned: PinnedRevision, override?: string): string {
  if (override) return /^https?:\/\//.test(override) ? override : resolve(override);
  const dir = process.env.MCP_SCHEMA_DIR;
  if (dir) return resolve(dir, revision, "schema.json");
  return isAbsolute(pinned.schema) ? pinned.schema : resolve(root, pinned.schema);
}

/**
 * Loads a schema.json from a file path or an http(s) URL and checks its shape.
 *
 * @throws Error saying where the read failed, and what the file should contain.
 */
export async function loadSchema(revision: string, location: string): Promise<LoadedSchema> {
  let text: string;
  try {
    if (/^https?:\/\//.test(location)) {
      const response = await fetch(location);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await response.text();
    } else {
      text = readFileSync(location, "utf8");
    }
  } catch (error) {
    throw new Error(
      `cannot read the ${revision} schema from ${location}: ${(error as Error).message}. ` +
        "Point --schema or MCP_SCHEMA_DIR at a checkout of the MCP schema.",
    );
  }
  const sha256 = createHash("sha256").update(text).digest("hex");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`${location} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(document) || !isObject(document.$defs)) {
    throw new Error(`${location} has no "$defs": expected an MCP schema.json (JSON Schema 2020-12)`);
  }
  return { revision, location, sha256, document: document as unknown as SchemaDocument };
}
