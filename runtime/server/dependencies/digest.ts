import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * Deterministic JSON: object keys sorted, no whitespace, members whose value
 * is `undefined` left out (as `JSON.stringify` does). Two structurally equal
 * values give the same text in any process, whatever order their keys were
 * built in, which is what a digest that must survive restarts needs.
 *
 * @param value - a JSON-compatible value.
 * @throws TypeError when `value` holds something JSON cannot carry (a function, a bigint, a cycle, a non-finite number).
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, open: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`cannot digest the non-finite number ${value}`);
      return JSON.stringify(value);
    case "object": {
      if (open.has(value)) throw new TypeError("cannot digest a value that contains itself");
      open.add(value);
      try {
        if (Array.isArray(value)) {
          return `[${value.map((item) => (item === undefined ? "null" : write(item, open))).join(",")}]`;
        }
        const members = Object.keys(value)
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${write((value as Record<string, unknown>)[key], open)}`);
        return `{${members.join(",")}}`;
      } finally {
        open.delete(value);
      }
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
  return base64url(sha256(utf8ToBytes(canonicalJson(rendered))).subarray(0, 16));
}
