/**
 * One bound on how deeply a request may nest, checked before anything
 * recursive touches it (the schema validators, the argument snapshot, the
 * canonical JSON of sealed state), so a hostile body gets a clear `-32602`
 * instead of a stack overflow blamed on the server.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";

/** Default deepest nesting of a request's `params`: far beyond any real tool's arguments. */
export const DEFAULT_MAX_NESTING_DEPTH = 100;

/**
 * Throws when `params` nests objects and arrays more than `limit` levels
 * deep (`params` itself is level 1). Iterative, so any depth is safe to measure.
 *
 * @throws McpError -32602 naming the limit and where it was crossed
 * @internal
 */
export function assertNestingWithin(params: unknown, limit: number): void {
  if (typeof params !== "object" || params === null) return;
  const stack: Array<{ value: object; depth: number; path: string }> = [{ value: params, depth: 1, path: "/params" }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (depth > limit) {
      throw new McpError(
        JsonRpcErrorCode.InvalidParams,
        `Invalid params: ${clip(path)} nests deeper than ${limit} levels, the most this server accepts (maxNestingDepth)`,
        { maxNestingDepth: limit },
      );
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === "object" && item !== null) stack.push({ value: item, depth: depth + 1, path: `${path}/${i}` });
      }
    } else {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item: unknown = (value as Record<string, unknown>)[key];
        if (typeof item === "object" && item !== null) stack.push({ value: item, depth: depth + 1, path: `${path}/${key}` });
      }
    }
  }
}

/** A JSON Pointer short enough to read in a message. */
function clip(path: string): string {
  return path.length > 120 ? `${path.slice(0, 60)}…${path.slice(-40)}` : path;
}
