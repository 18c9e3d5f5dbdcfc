/**
 * Key rings from text an operator writes: an environment variable or a file
 * holding entries like `base64url:…`, `base64:…` or `hex:…`, separated by
 * commas or newlines. Every entry names its encoding, so two services that
 * read the same text always derive the same keys (a bare string would be
 * raw UTF-8 to one and base64 to another, and their key ids would differ).
 *
 * @module
 */
import type { CryptoBackend, CryptoBackendChoice } from "./backend.js";
import { decodeBase64url } from "./base64url.js";
import { loadNodeBuiltin } from "../../protocol/require-sync.js";
import { describe, KEY_GENERATION_HINT, MIN_SECRET_BYTES, type RequestStateSecret, secretBytes } from "./keys.js";
import { selectBackend } from "./select-backend.js";

/** The environment variable `RequestStateSecurity.fromEnv` reads by default. */
export const DEFAULT_KEYS_ENV = "MCP_REQUEST_STATE_KEYS";

/** The encodings a key entry may name, in the order an error lists them. */
const KEY_ENCODINGS = ["base64url", "base64", "hex"] as const;

/** One encoding a key entry may name. */
type KeyEncoding = (typeof KEY_ENCODINGS)[number];

const KEY_INFO = new TextEncoder().encode("mcp/request-state/v1/aes-256-gcm");
const KID_LABEL = new TextEncoder().encode("mcp/request-state/v1/kid:");
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const FORMAT_HINT = "write each key as base64url:<key>, base64:<key> or hex:<key>, separated by commas or newlines";

/**
 * Decodes one prefixed key entry to its bytes.
 *
 * @param entry - `base64url:…`, `base64:…` or `hex:…` (surrounding whitespace is ignored).
 * @param where - names the entry in errors, e.g. `MCP_REQUEST_STATE_KEYS entry 2`; the key itself is never shown.
 * @throws {TypeError} when the entry has no known prefix or its text is not valid for its encoding.
 * @throws {RangeError} when it decodes to fewer than 32 bytes.
 * @example
 * ```ts
 * const secret = decodeKeyEntry(process.env.STATE_KEY!); // "base64url:…"
 * ```
 */
export function decodeKeyEntry(entry: string, where = "decodeKeyEntry: the entry"): Uint8Array {
  if (typeof entry !== "string") throw new TypeError(`${where} expected a string, got ${describe(entry)}. ${KEY_GENERATION_HINT}`);
  const text = entry.trim();
  const colon = text.indexOf(":");
  const encoding = colon === -1 ? "" : text.slice(0, colon).toLowerCase();
  if (!(KEY_ENCODINGS as readonly string[]).includes(encoding)) {
    // The entry is not echoed: a bare string is most likely the secret itself.
    throw new TypeError(`${where} has no encoding prefix; ${FORMAT_HINT}. ${KEY_GENERATION_HINT}`);
  }
  const body = text.slice(colon + 1).trim();
  const bytes = decodeAs(encoding as KeyEncoding, body);
  if (bytes === undefined) {
    throw new TypeError(`${where} is not valid ${encoding} text after its "${encoding}:" prefix. ${KEY_GENERATION_HINT}`);
  }
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new RangeError(`${where} decodes to ${bytes.length} bytes; a key needs at least ${MIN_SECRET_BYTES}. ${KEY_GENERATION_HINT}`);
  }
  return bytes;
}

function decodeAs(encoding: KeyEncoding, body: string): Uint8Array | undefined {
  if (body === "") return undefined;
  if (encoding === "hex") {
    if (!HEX.test(body)) return undefined;
    const out = new Uint8Array(body.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(body.slice(i * 2, i * 2 + 2), 16);
    return out;
  }
  if (encoding === "base64") {
    if (!BASE64.test(body) || (body.includes("=") && body.length % 4 !== 0)) return undefined;
    return decodeBase64url(body.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"));
  }
  // Padding is tolerated on base64url (some encoders add it); the rest must be canonical.
  return decodeBase64url(body.replace(/=+$/, ""));
}

/**
 * Splits key-ring text into entries and decodes each: entries are separated
 * by commas or newlines; blank lines and lines starting with `#` are skipped.
 * The first entry mints, every entry verifies.
 *
 * @param text - e.g. the value of `MCP_REQUEST_STATE_KEYS` or a key file's contents.
 * @param origin - names the source in errors (`MCP_REQUEST_STATE_KEYS`, a file path).
 * @throws {TypeError} for an entry without a known prefix or with invalid text.
 * @throws {RangeError} for an empty ring or a short key.
 * @example
 * ```ts
 * const keys = parseKeyRing(process.env.MCP_REQUEST_STATE_KEYS ?? "", "MCP_REQUEST_STATE_KEYS");
 * ```
 */
export function parseKeyRing(text: string, origin: string): Uint8Array[] {
  if (typeof text !== "string") throw new TypeError(`${origin} expected key-ring text, got ${describe(text)}`);
  const entries = text
    .split(/\r?\n/)
    .filter((line) => !line.trim().startsWith("#"))
    .flatMap((line) => line.split(","))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) {
    throw new RangeError(`${origin} holds no keys; ${FORMAT_HINT} (the first one mints). ${KEY_GENERATION_HINT}`);
  }
  return entries.map((entry, index) => decodeKeyEntry(entry, `${origin} entry ${index + 1}`));
}

/**
 * Reads a key ring from an environment variable.
 *
 * @throws {RangeError} when the variable is unset or empty (the message says what to set it to).
 * @internal `RequestStateSecurity.fromEnv` is the public form.
 */
export function keyRingFromEnv(name: string): Uint8Array[] {
  if (typeof name !== "string" || name === "") throw new TypeError(`fromEnv expected a variable name, got ${describe(name)}`);
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  if (value === undefined || value.trim() === "") {
    throw new RangeError(`${name} is not set; set it to the key ring, e.g. ${name}=base64url:<key>[,base64url:<older key>]. ${KEY_GENERATION_HINT}`);
  }
  return parseKeyRing(value, name);
}

/**
 * Reads a key ring from a file (one entry per line or comma-separated; `#` comments allowed).
 *
 * @throws {Error} when the file cannot be read (the message names the path and the cause).
 * @internal `RequestStateSecurity.fromFile` is the public form.
 */
export async function keyRingFromFile(path: string): Promise<Uint8Array[]> {
  if (typeof path !== "string" || path === "") throw new TypeError(`fromFile expected a file path, got ${describe(path)}`);
  const fs = await loadNodeBuiltin<typeof import("node:fs/promises")>("node:fs/promises");
  if (fs === undefined) {
    throw new Error(
      "fromFile needs a file system (Node, Deno, Bun), which this runtime lacks; pass the keys themselves, " +
        "e.g. new RequestStateSecurity({ keys: [env.STATE_KEY] }) with the key from a secret binding",
    );
  }
  const { readFile } = fs;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(`could not read the key file ${path} (${typeof code === "string" ? code : "read failed"}); check the path and its permissions`, {
      cause: error,
    });
  }
  return parseKeyRing(text, path);
}

/**
 * The key id of a secret, as 8 lowercase hex digits: the 4 bytes the
 * built-in codec writes at the start of every token it mints under that key
 * (`SHA-256("mcp/request-state/v1/kid:" ‖ HKDF-SHA256(secret))[0..4]`). It
 * names a key in logs, `security.keyIds` and `npx mcp-roundtrip kid` without
 * revealing it.
 *
 * @param secret - what `new RequestStateSecurity({ keys: [secret] })` takes: bytes, or a string
 *   taken as its UTF-8 bytes. For a prefixed entry (`base64url:…`) pass `decodeKeyEntry(entry)`.
 * @param options - `crypto` picks the backend (both give the same id).
 * @throws {TypeError} for a value that is neither bytes nor a string, or a string that is a prefixed entry.
 * @throws {RangeError} for a secret shorter than 32 bytes.
 * @example
 * ```ts
 * keyIdOf(decodeKeyEntry(process.env.STATE_KEY!)); // "1d02081b"
 * ```
 */
export function keyIdOf(secret: RequestStateSecret, options: { crypto?: CryptoBackendChoice } = {}): string {
  const [bytes] = secretBytes([secret]);
  return kidHex(selectBackend(options.crypto), bytes!);
}

/** The key id of secret bytes (no checks). @internal */
export function kidHex(backend: CryptoBackend, secret: Uint8Array): string {
  const key = backend.hkdfSha256(secret, KEY_INFO, 32);
  const labelled = new Uint8Array(KID_LABEL.length + key.length);
  labelled.set(KID_LABEL);
  labelled.set(key, KID_LABEL.length);
  key.fill(0);
  const kid = backend.sha256(labelled).subarray(0, 4);
  labelled.fill(0);
  return hexOf(kid);
}

/** Lowercase hex of bytes. @internal */
export function hexOf(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}
