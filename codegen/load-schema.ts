import { resolve } from "node:path";
import { isObject, type SchemaDocument } from "./json.js";
import { defaultCacheDir, describeReadError, PinMismatch, putInCache, readLocation, resolvePinned, sha256Hex } from "./resolve.js";
import { isUrl, pinnedSchemaFile, recordedSource, type PinnedRevision, type PinnedSource } from "./sources.js";

/** A loaded schema, with where it came from and its digest. */
export interface LoadedSchema {
  revision: string;
  location: string;
  sha256: string;
  document: SchemaDocument;
}

/** How codegen asks for a revision's schema. */
export interface LoadSchemaOptions {
  /** `--schema PATH|URL`: read exactly this, instead of resolving the pin. */
  override?: string | undefined;
  /** `--accept-new-schema` (outside `--check`): adopt bytes whose sha256 differs from the pin. */
  accept: boolean;
  /** `--check`: a mismatch is never a release to adopt, only a wrong copy. */
  check?: boolean;
}

/**
 * Reads the schema.json of one revision: from `--schema` when given, else
 * through the resolver (MCP_SCHEMA_DIR, the cache, the pinned source). Bytes
 * that differ from the pin are refused, naming both digests, unless
 * accepting; then `adopted` says what to pin: where they came from and their
 * sha256. Adopted bytes go into the cache, so the next `--check` on this
 * machine finds them even when their source was a scratch file.
 *
 * @throws Error naming the location and both digests on a mismatch; naming every place looked in when no copy exists.
 */
export async function loadRevisionSchema(
  root: string,
  revision: string,
  pinned: PinnedRevision,
  options: LoadSchemaOptions,
): Promise<{ loaded: LoadedSchema; adopted?: PinnedSource }> {
  const file = pinnedSchemaFile(root, revision, pinned);
  const adoptHint = (location: string) =>
    `If this is a spec release you mean to adopt, run \`npm run codegen -- --revision ${revision} --schema ${location} --accept-new-schema\`, review the overlay and commit.`;
  let bytes: Buffer;
  let location: string;
  if (options.override) {
    location = isUrl(options.override) ? options.override : resolve(options.override);
    try {
      bytes = await readLocation(location);
    } catch (error) {
      throw new Error(
        `cannot read the ${revision} schema from ${location} (${describeReadError(error)}): point --schema at a schema.json file or URL, ` +
          "or leave it out to use MCP_SCHEMA_DIR, the cache or the pinned source",
      );
    }
  } else {
    try {
      ({ bytes, location } = await resolvePinned(file));
    } catch (error) {
      if (!(error instanceof PinMismatch) || !options.accept) {
        if (error instanceof PinMismatch) {
          const mismatch = `the ${revision} schema at ${error.location} has sha256 ${error.actual}, but schema/sources.json pins ${file.sha256}`;
          if (error.origin === "schema-dir") {
            // Most often a folder left over from before a pin was adopted: adopting it would revert the pin.
            const adopt = options.check ? "" : ` Only if that folder holds a newer release you mean to adopt: ${adoptHint(error.location)}`;
            throw new Error(
              `${mismatch}: MCP_SCHEMA_DIR holds another release; point it at the pinned one (or unset it: the cache or the pinned source is used then).${adopt}`,
            );
          }
          throw new Error(`${mismatch}: ${error.advice}`);
        }
        throw error;
      }
      ({ bytes, location } = error);
    }
  }
  const sha256 = sha256Hex(bytes);
  let adopted: PinnedSource | undefined;
  if (sha256 !== file.sha256 || (options.accept && options.override && recordedSource(root, location) !== pinned.schema.source)) {
    if (!options.accept) {
      const next = options.check ? "--check compares with the pinned release: point --schema at it, or leave --schema out." : adoptHint(location);
      throw new Error(`the ${revision} schema at ${location} has sha256 ${sha256}, but schema/sources.json pins ${file.sha256}. ${next}`);
    }
    adopted = { source: recordedSource(root, location), sha256 };
  }
  const document = parseSchema(location, bytes);
  putInCache(defaultCacheDir(), sha256, bytes);
  const loaded = { revision, location, sha256, document };
  return adopted ? { loaded, adopted } : { loaded };
}

/**
 * Parses schema bytes and checks they look like an MCP schema.json.
 *
 * @throws Error naming the location when the bytes are not JSON or have no `$defs`.
 */
export function parseSchema(location: string, bytes: Buffer): SchemaDocument {
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new Error(`${location} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(document) || !isObject(document.$defs)) {
    throw new Error(`${location} has no "$defs": expected an MCP schema.json (JSON Schema 2020-12)`);
  }
  return document as unknown as SchemaDocument;
}
