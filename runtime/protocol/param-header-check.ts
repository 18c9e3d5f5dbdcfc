/**
 * The server's check of a call's `Mcp-Param-*` headers against its body
 * (2026-07-28 streamable-http, "Custom Headers"), over the annotations
 * `param-headers.ts` reads.
 *
 * @module
 */
import { decodeHeaderValue } from "./headers.js";
import { HeaderName } from "./names.js";
import { isObject } from "./guards.js";
import { paramHeadersOf, type ParamHeader } from "./param-headers.js";

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
