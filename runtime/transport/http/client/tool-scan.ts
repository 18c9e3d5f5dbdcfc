/**
 * The `x-mcp-header` half of the HTTP client's tool memory, loaded the first
 * time a `tools/list` result mentions an annotation (most tools declare
 * none, and a browser client should not carry the rules for them): each
 * tool's annotations read from its `inputSchema`, a tool with an invalid
 * one dropped (2026-07-28 streamable-http, "Custom Headers"), and the
 * `Mcp-Param-*` headers of a call.
 *
 * @internal
 */
import { type ParamHeader, paramHeadersOf } from "../../../protocol/param-headers.js";

/** How a header value is encoded (`encodeHeaderValue`): passed in, since importing it would split it off the browser entry chunk. */
type Encode = (value: string) => string;

/** Learns the annotations of a `tools/list` page into `byTool`; returns the tools to keep (the invalid ones dropped, with a warning). @internal */
export function learnTools(tools: unknown[], byTool: Map<string, readonly ParamHeader[]>, warn: (message: string) => void): unknown[] {
  const kept: unknown[] = [];
  for (const tool of tools) {
    const name = typeof tool === "object" && tool !== null ? (tool as { name?: unknown }).name : undefined;
    if (typeof name !== "string") {
      kept.push(tool);
      continue;
    }
    const scan = paramHeadersOf((tool as { inputSchema?: unknown }).inputSchema);
    if (!scan.ok) {
      byTool.delete(name);
      warn(`Ignoring tool "${name}": ${scan.reason}.`);
      continue;
    }
    byTool.set(name, scan.headers);
    kept.push(tool);
  }
  return kept;
}

/** Writes the `Mcp-Param-*` headers of a call with `args`. @internal */
export function writeParamHeaders(params: readonly ParamHeader[], args: unknown, headers: Record<string, string>, encode: Encode): void {
  for (const param of params) {
    const value = paramHeaderValue(param, args, encode);
    if (value !== undefined) headers[`mcp-param-${param.header.toLowerCase()}`] = value;
  }
}

/**
 * The header value for one annotated parameter of a call's arguments, or
 * `undefined` when the value is absent or `null` (the header is then omitted).
 */
function paramHeaderValue(param: ParamHeader, args: unknown, encodeHeaderValue: Encode): string | undefined {
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
