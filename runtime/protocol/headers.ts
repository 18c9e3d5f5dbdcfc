/**
 * The HTTP headers Streamable HTTP mirrors from the JSON-RPC body
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) and their
 * value encoding. Shared by the server handler (which checks headers against
 * the body) and the fetch client (which writes them); the `x-mcp-header`
 * rules of `Mcp-Param-*` are in `param-headers.ts`.
 */

import { isTaskMethod } from "./tasks-wire.js";

export { HeaderName } from "./names.js";

export { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "./names.js";

/** Methods whose `params.name` / `params.uri` (`params.taskId` for the task methods) is mirrored into `Mcp-Name`. */
export function nameSourceOf(method: string, params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const record = params as Record<string, unknown>;
  if (method === "tools/call" || method === "prompts/get") {
    return typeof record.name === "string" ? record.name : undefined;
  }
  if (method === "resources/read") return typeof record.uri === "string" ? record.uri : undefined;
  // The tasks extension (SEP-2663) routes its methods on the task id.
  if (isTaskMethod(method)) return typeof record.taskId === "string" ? record.taskId : undefined;
  return undefined;
}

/** True for the methods that must carry an `Mcp-Name` header. */
export function methodRequiresName(method: string): boolean {
  return method === "tools/call" || method === "prompts/get" || method === "resources/read" || isTaskMethod(method);
}

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * True when `value` can travel as a plain header value: visible ASCII and
 * inner spaces only, no leading or trailing whitespace, and not shaped like
 * the Base64 sentinel (which would be ambiguous).
 */
function isPlainHeaderSafe(value: string): boolean {
  if (value !== value.trim()) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return !(value.startsWith("=?base64?") && value.endsWith("?="));
}

/**
 * Encodes a string for an `Mcp-Name` or `Mcp-Param-*` header: as is when it is
 * header-safe, otherwise as `=?base64?…?=` over its UTF-8 bytes.
 *
 * @example
 * ```ts
 * encodeHeaderValue("us-west1");    // "us-west1"
 * encodeHeaderValue("Hello, 世界"); // "=?base64?SGVsbG8sIOS4lueVjA==?="
 * ```
 */
export function encodeHeaderValue(value: string): string {
  if (isPlainHeaderSafe(value)) return value;
  return `=?base64?${bytesToBase64(new TextEncoder().encode(value))}?=`;
}

/**
 * Decodes a header value written by {@link encodeHeaderValue}. Returns
 * `undefined` for a value that is neither plain-safe nor a well-formed
 * sentinel (invalid characters, broken Base64, bytes that are not UTF-8).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const match = SENTINEL.exec(raw);
  if (match) {
    // Strict: canonical padded Base64 only (atob alone forgives a missing pad).
    if ((match[1] ?? "").length % 4 !== 0) return undefined;
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(base64ToBytes(match[1] ?? ""));
    } catch {
      return undefined;
    }
  }
  // A plain value may contain inner spaces and tabs but nothing outside visible ASCII.
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code > 0x7e) return undefined;
  }
  return raw;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
