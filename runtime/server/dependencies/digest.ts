import { sha256 } from "../../state/primitives/sha256.js";

const utf8 = new TextEncoder();

/**
 * Deterministic JSON: object keys sorted, no whitespace, members whose value
 * is `undefined` left out (as `JSON.stringify` does). Two structurally equal
 * values give the same text in any process, whatever order their keys were
 * built in, which is what a digest that must survive restarts needs.
 *
 * @param value - a JSON-compatible value.
 * @throws TypeError when `value` holds something JSON cannot carry (a function, a bigint, a non-finite number) or is nested deeper than 64 levels (a cycle included).
 */
function canonicalJson(value: unknown): string {
  return write(value, 0);
}

// Deeper than any question a person would read: past it the value is taken to contain itself.
const MAX_DEPTH = 64;

function write(value: unknown, depth: number): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`cannot digest the non-finite number ${value}`);
      return JSON.stringify(value);
    case "object": {
      if (depth >= MAX_DEPTH) throw new TypeError(`cannot digest a value nested deeper than ${MAX_DEPTH} levels (or one that contains itself)`);
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ",";
          out += value[i] === undefined ? "null" : write(value[i], depth + 1);
        }
        return out + "]";
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = "{";
      for (const key of keys) {
        const member = record[key];
        if (member === undefined) continue;
        if (out.length > 1) out += ",";
        out += JSON.stringify(key) + ":" + write(member, depth + 1);
      }
      return out + "}";
    }
    default:
      throw new TypeError(`cannot digest a ${typeof value}; questions must be plain JSON`);
  }
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function base64url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += BASE64URL[(chunk >> (18 - 6 * c)) & 63];
  }
  return out;
}

/**
 * The digest an answer is pinned to: SHA-256 of the canonical JSON of the
 * rendered input request, first 16 bytes, base64url. 128 bits is plenty to
 * tell one question from another and keeps the sealed state small.
 *
 * @param rendered - the input request exactly as it goes on the wire.
 */
export function questionDigest(rendered: unknown): string {
  return digestOfCanonical(canonicalJson(rendered));
}

/**
 * The digest of a question whose canonical JSON the caller already has.
 * @internal
 */
function digestOfCanonical(text: string): string {
  return base64url(sha256(utf8.encode(text)).subarray(0, 16));
}

/** Per form schema: its canonical JSON, and the digests of the messages asked with it. */
interface SchemaDigests {
  text: string;
  byMessage: Map<string, string>;
}

const bySchema = new WeakMap<object, SchemaDigests>();
const MESSAGES_PER_SCHEMA = 64;

/**
 * The digest of a form elicitation, equal to `questionDigest` of its rendered
 * request, remembered per schema object and message: resolvers run every
 * round and usually pass the same constant schema. Schemas are typed readonly
 * and must not be changed in place once used.
 *
 * @param message - the question's message.
 * @param schema - its `requestedSchema`.
 * @internal
 */
export function elicitDigest(message: string, schema: object): string {
  let entry = bySchema.get(schema);
  if (entry === undefined) {
    entry = { text: canonicalJson(schema), byMessage: new Map() };
    bySchema.set(schema, entry);
  }
  let digest = entry.byMessage.get(message);
  if (digest === undefined) {
    // Keys in sorted order, exactly as canonicalJson writes { method, params: { message, mode, requestedSchema } }.
    digest = digestOfCanonical(`{"method":"elicitation/create","params":{"message":${JSON.stringify(message)},"mode":"form","requestedSchema":${entry.text}}}`);
    if (entry.byMessage.size >= MESSAGES_PER_SCHEMA) entry.byMessage.clear();
    entry.byMessage.set(message, digest);
  }
  return digest;
}
