/**
 * A deep copy of a JSON value (objects, arrays, primitives), for handing a
 * handler arguments it may change without changing the request they came
 * in. Much cheaper than `structuredClone` for the small objects arguments
 * usually are; an own `"__proto__"` key stays an own key.
 *
 * @param value - a JSON value, as decoded from the wire
 * @returns a copy sharing no object with `value`
 * @internal
 */
export function snapshotJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = snapshotJson(value[i]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = snapshotJson((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
