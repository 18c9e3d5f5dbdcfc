/**
 * `{ ...source }` for a copy that is about to gain members. V8 makes a spread
 * clone that then gains a member through a slow path whose garbage outlives
 * young-generation collections, which grows the heap under load;
 * `Object.assign` onto a fresh object does not. An own `"__proto__"` key
 * (`JSON.parse` makes those) keeps the spread: assigning it would set the prototype.
 *
 * @param source - the object to copy: its own enumerable members, string and symbol keyed, in order.
 * @returns a plain object (prototype `Object.prototype`) with those members.
 * @internal
 */
export function copyToExtend(source: object): Record<string, unknown> {
  return Object.hasOwn(source, "__proto__") ? { ...source } : (Object.assign({}, source) as Record<string, unknown>);
}
