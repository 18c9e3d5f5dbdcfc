// The simplest tool schemas are checked without AJV: for any schema of the
// subset and any value, the answer must be AJV's, issue for issue.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileJsonSchema } from "../../runtime/server/schema/json-schema.js";
import { simpleObjectChecker } from "../../runtime/server/schema/simple-schema.js";

const TYPES = ["string", "number", "integer", "boolean", "null"] as const;
const names = fc.oneof(fc.constantFrom("a", "b", "x/y", "t~1", "", "0", "10", "é", "constructor", "toString"), fc.string({ maxLength: 4 }));

const subsetSchema = fc
  .record(
    {
      properties: fc.dictionary(names, fc.record({ type: fc.constantFrom(...TYPES), description: fc.string({ maxLength: 3 }) }, { requiredKeys: ["type"] }), {
        maxKeys: 5,
      }),
      required: fc.uniqueArray(names, { maxLength: 4 }),
      title: fc.string({ maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .filter((schema) => !Object.keys(schema.properties ?? {}).includes("__proto__") && !(schema.required ?? []).includes("__proto__"))
  .map((schema) => ({ type: "object", ...schema }) as Record<string, unknown>);

const values = fc.oneof(fc.jsonValue(), fc.dictionary(names, fc.oneof(fc.jsonValue(), fc.constantFrom(1.5, -0, 2 ** 53, NaN, Infinity, undefined)), { maxKeys: 6 }));

/** AJV's answer, through the SDK's own path: a `$comment` takes the schema out of the subset and changes nothing else. */
const viaAjv = (schema: Record<string, unknown>) => compileJsonSchema({ ...schema, $comment: "force AJV" }, "t");

describe("the AJV-free subset", () => {
  it("answers exactly what AJV answers, for any schema of the subset and any value", () => {
    fc.assert(
      fc.property(subsetSchema, fc.array(values, { minLength: 1, maxLength: 5 }), (schema, samples) => {
        expect(simpleObjectChecker(schema)).toBeDefined();
        const ours = compileJsonSchema(schema, "t");
        const ajv = viaAjv(schema);
        for (const sample of samples) expect(ours(sample)).toEqual(ajv(sample));
      }),
      { numRuns: 400 },
    );
  });

  it("hands everything else to AJV, which still rejects a bad schema at compile time", () => {
    for (const schema of [
      { type: "object", additionalProperties: false },
      { type: "object", properties: { a: { type: "string", minLength: 1 } } },
      { type: "object", properties: { a: { type: ["string", "null"] } } },
      { type: "object", properties: { a: { type: "object" } } },
      { type: "object", properties: { __proto__: { type: "string" } } },
      { type: "object", required: ["a", "a"] },
      { type: "object", title: 5 },
      { type: "object", $schema: "https://json-schema.org/draft/2020-12/schema" },
    ]) {
      expect(simpleObjectChecker(schema), JSON.stringify(schema)).toBeUndefined();
    }
    expect(() => compileJsonSchema({ type: "object", required: ["a", "a"] }, 'inputSchema of tool "t"')).toThrow(
      /^inputSchema of tool "t" is not a valid JSON Schema: .*duplicate/,
    );
    expect(() => compileJsonSchema({ type: "object", title: 5 }, "x")).toThrow(/^x is not a valid JSON Schema: /);
  });
});
