/**
 * The type guards every layer needs, written once. The protocol floor imports
 * nothing else from the runtime, so any module may use these.
 *
 * @module
 * @internal
 */

/**
 * True for a JSON-style object: not `null`, not an array. Any prototype is
 * accepted (class instances and null-prototype objects pass); use
 * {@link isPlainObject} where only literal-like objects may pass.
 * @internal
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True for a plain object: what {@link isObject} accepts, and besides its
 * prototype is `Object.prototype` or `null` (an object literal, `JSON.parse`
 * output, `Object.create(null)`), so class instances, maps and dates fail.
 * @internal
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * True for anything with a callable `then`: a promise or any other thenable
 * a handler may return.
 * @internal
 */
export function isThenable<T>(value: unknown): value is PromiseLike<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
