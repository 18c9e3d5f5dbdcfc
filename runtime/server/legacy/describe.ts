/**
 * How the 2025 path names what a request asked for in its errors.
 *
 * @internal
 */
import type { RequestContextImpl } from "../context.js";

/**
 * `tool "name"`, `prompt "name"` or `resource "uri"`: the target of a
 * `tools/call`, `prompts/get` or `resources/read`, for error messages.
 * @internal
 */
export function describeTarget(ctx: RequestContextImpl, params: Record<string, unknown>): string {
  const target = ctx.method === "resources/read" ? params.uri : params.name;
  const kind = ctx.method === "tools/call" ? "tool" : ctx.method === "prompts/get" ? "prompt" : "resource";
  return `${kind} ${JSON.stringify(target)}`;
}
