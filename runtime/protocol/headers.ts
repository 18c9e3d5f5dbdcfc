/**
 * The HTTP headers Streamable HTTP mirrors from the JSON-RPC body
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), their
 * value encoding, and the `x-mcp-header` rules for tool parameters. Shared by
 * the server handler (which checks headers against the body) and the fetch
 * client (which writes them).
 */

import { isTaskMethod } from "./tasks-wire.js";
import { HeaderName } from "./names.js";
import { isObject } from "./guards.js";

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

/** RFC 9110 `tchar`: the characters allowed in a header field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** One `x-mcp-header` annotation: where the value lives and which header carries it. */
export interface ParamHeader {
  /** The `Name` in `Mcp-Param-{Name}`, as the schema spells it. */
  header: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  path: string[];
  /** The parameter's JSON Schema type: only these three may be mirrored. */
  type: "string" | "integer" | "boolean";
}

/** Outcome of {@link paramHeadersOf}: the annotations, or why the tool is invalid. */
export type ParamHeaderScan =
  | {
      /** The schema's header annotations are valid. */
      ok: true;
      /** The `Mcp-Param-*` headers the tool's calls carry, one per annotated argument. */
      headers: ParamHeader[];
    }
  | {
      /** The annotations break a rule, so the tool cannot be registered. */
      ok: false;
      /** Which rule, in words fit for the registration error. */
      reason: string;
    };

const COMPOSITION_KEYS = [
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
  "dependentSchemas",
  "contains",
];

/**
 * Collects the `x-mcp-header` annotations of a tool's `inputSchema` and
 * checks every rule the spec puts on them (non-empty token, case-insensitive
 * uniqueness, primitive non-number type, reachable through `properties` only).
 * A tool with any broken annotation must be dropped from `tools/list` by
 * HTTP clients.
 */
export function paramHeadersOf(inputSchema: unknown): ParamHeaderScan {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  let failure: string | undefined;

  const visit = (schema: unknown, path: string[], reachable: boolean): void => {
    if (failure || typeof schema !== "object" || schema === null) return;
    if (Array.isArray(schema)) {
      for (const entry of schema) visit(entry, path, false);
      return;
    }
    const node = schema as Record<string, unknown>;
    if ("x-mcp-header" in node) {
      const header = node["x-mcp-header"];
      const where = path.join(".") || "(root)";
      if (!reachable || path.length === 0) {
        failure = `x-mcp-header on ${where} is not reachable through properties alone`;
        return;
      }
      if (typeof header !== "string" || header.length === 0) {
        failure = `x-mcp-header on ${where} must be a non-empty string`;
        return;
      }
      if (!TOKEN.test(header)) {
        failure = `x-mcp-header "${header}" on ${where} is not a valid HTTP header token`;
        return;
      }
      const type = node.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") {
        failure = `x-mcp-header "${header}" on ${where} must annotate a string, integer or boolean parameter`;
        return;
      }
      const key = header.toLowerCase();
      if (seen.has(key)) {
        failure = `x-mcp-header "${header}" is declared more than once (names are case-insensitive)`;
        return;
      }
      seen.add(key);
      headers.push({ header, path: [...path], type });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && isObject(value)) {
        for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
          visit(child, [...path, name], reachable);
        }
      } else if (COMPOSITION_KEYS.includes(key) || key === "$ref") {
        visit(value, path, false);
      } else if (typeof value === "object" && value !== null && key !== "x-mcp-header") {
        visit(value, path, false);
      }
    }
  };

  visit(inputSchema, [], true);
  return failure ? { ok: false, reason: failure } : { ok: true, headers };
}

/**
 * The header value for one annotated parameter of a call's arguments, or
 * `undefined` when the value is absent or `null` (the header is then omitted).
 */
export function paramHeaderValue(param: ParamHeader, args: unknown): string | undefined {
  let value: unknown = args;
  for (const key of param.path) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return encodeHeaderValue(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return encodeHeaderValue(String(value));
  return undefined;
}

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against the tool's
 * `x-mcp-header` annotations and the call's arguments, as a server that
 * processes the body must. Returns the `-32020` message to answer with, or
 * `undefined` when every header matches (or the tool annotates nothing).
 *
 * @param inputSchema - the tool's `inputSchema`
 * @param args - the call's `arguments`
 * @param headers - the HTTP request headers (`RequestContext.headers`)
 *
 * @example
 * ```ts
 * const problem = paramHeaderMismatch(tool.inputSchema, params.arguments, ctx.headers);
 * if (problem) throw new McpError(-32020, problem);
 * ```
 */
export function paramHeaderMismatch(inputSchema: unknown, args: unknown, headers: Headers): string | undefined {
  const scan = paramHeadersOf(inputSchema);
  return scan.ok ? paramHeadersMismatch(scan.headers, args, headers) : undefined;
}

/**
 * {@link paramHeaderMismatch} for annotations already collected with
 * {@link paramHeadersOf} (a server scans each tool once, at registration).
 *
 * @param params - the tool's annotations
 * @param args - the call's `arguments`
 * @param headers - the HTTP request headers
 */
export function paramHeadersMismatch(params: readonly ParamHeader[], args: unknown, headers: Headers): string | undefined {
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) {
      value = isObject(value) ? value[key] : undefined;
    }
    const name = `Mcp-Param-${param.header}`;
    const raw = headers.get(`${HeaderName.paramPrefix}${param.header.toLowerCase()}`);
    if (value === undefined || value === null) continue;
    if (raw === null) return `Header mismatch: the ${name} header is required because the arguments set ${param.path.join(".")}.`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Header mismatch: the ${name} header contains invalid characters or broken Base64.`;
    const matches =
      typeof value === "number" ? decoded.trim() !== "" && Number(decoded) === value : typeof value === "boolean" ? decoded === String(value) : decoded === value;
    if (!matches) return `Header mismatch: the ${name} header does not match the value of ${param.path.join(".")} in the body.`;
  }
  return undefined;
}
