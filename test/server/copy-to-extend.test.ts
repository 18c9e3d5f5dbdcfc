// The server copies a handler's result (and its _meta) before stamping
// resultType and serverInfo; the copy must be exactly what a spread gives.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyToExtend } from "../../runtime/protocol/copy.js";

function sameAsSpread(source: Record<string, unknown>): void {
  const copy = copyToExtend(source);
  const spread = { ...source };
  expect(copy).not.toBe(source);
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys(spread));
  for (const key of Reflect.ownKeys(spread)) {
    expect(Object.getOwnPropertyDescriptor(copy, key)).toEqual(Object.getOwnPropertyDescriptor(spread, key));
  }
}

describe("copyToExtend", () => {
  it("copies like a spread, for any JSON object, keys in the same order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        sameAsSpread(JSON.parse(JSON.stringify(record)) as Record<string, unknown>);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps an own __proto__ key as a key, never as the prototype", () => {
    const parsed = JSON.parse('{"content":[],"__proto__":{"polluted":true},"z":1}') as Record<string, unknown>;
    sameAsSpread(parsed);
    const copy = copyToExtend(parsed);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
  });

  it("copies own enumerable symbols and reads getters, leaving inherited and hidden members out", () => {
    const tag = Symbol("tag");
    const source = Object.create({ inherited: 1 }) as Record<string | symbol, unknown>;
    source.a = 1;
    source[tag] = "t";
    Object.defineProperty(source, "hidden", { value: 2, enumerable: false });
    Object.defineProperty(source, "computed", { get: () => 3, enumerable: true });
    sameAsSpread(source as Record<string, unknown>);
    expect(copyToExtend(source)).toEqual({ a: 1, [tag]: "t", computed: 3 });
  });
});
