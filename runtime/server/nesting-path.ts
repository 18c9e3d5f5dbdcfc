/**
 * How deep a request's params may nest: the check that runs before any
 * schema walks them, and the path its refusal names.
 *
 * @internal
 * @module
 */
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";

/** The nesting a request's params may have when the server sets no `maxNestingDepth`. @internal */
export const DEFAULT_MAX_NESTING_DEPTH = 100;

/**
 * Refuses params nested deeper than `limit` before any schema check walks
 * them (a deep value would exhaust the validator's stack).
 * @throws McpError -32602 naming where the limit was passed
 * @internal
 */
export function assertNestingWithin(params: unknown, limit: number): void {
  if (typeof params !== "object" || params === null || depthWithin(params, 1, limit)) return;
  // Only a refused request pays for naming where: the walk itself builds no paths.
  const path = pathDeeperThan(params, 1, limit, "/params")!;
  const where = path.length > 120 ? `${path.slice(0, 60)}…${path.slice(-40)}` : path;
  throw new McpError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${where} nests deeper than ${limit} levels, the most this server accepts (maxNestingDepth)`, {
    maxNestingDepth: limit,
  });
}

/** True when `value` (at `depth`) nests no deeper than `limit`; recursion is bounded by `limit` itself. */
function depthWithin(value: object, depth: number, limit: number): boolean {
  if (depth > limit) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null && !depthWithin(item, depth + 1, limit)) return false;
    }
    return true;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && !depthWithin(item, depth + 1, limit)) return false;
  }
  return true;
}

/**
 * The path of the first value nested past `limit`, the way the request's
 * nesting check found it: only a refused request pays for naming where.
 * @internal
 */
function pathDeeperThan(value: object, depth: number, limit: number, path: string): string | undefined {
  if (depth > limit) return path;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
  for (const [key, item] of entries) {
    if (typeof item !== "object" || item === null) continue;
    const found = pathDeeperThan(item, depth + 1, limit, `${path}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
