/**
 * How deep a request's params may nest: the default limit, and the path a
 * refusal names (the check itself runs on every request, in request.ts;
 * this module's function runs only for a request it refuses).
 *
 * @internal
 * @module
 */

/** The nesting a request's params may have when the server sets no `maxNestingDepth`. @internal */
export const DEFAULT_MAX_NESTING_DEPTH = 100;

/**
 * The path of the first value nested past `limit`, the way the request's
 * nesting check found it: only a refused request pays for naming where.
 * @internal
 */
export function pathDeeperThan(value: object, depth: number, limit: number, path: string): string | undefined {
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
