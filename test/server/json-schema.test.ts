// The default inputSchema { type: "object" } is checked without AJV: its
// answers must be AJV's, word for word, for any value.
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileJsonSchema } from "../../runtime/server/schema/json-schema.js";

describe("the bare object schema", () => {
  const ours = compileJsonSchema({ type: "object" }, 'inputSchema of tool "t"');
  const ajv = new Ajv2020({ strict: false, allErrors: true }).compile({ type: "object" });
  const viaAjv = (value: unknown) =>
    ajv(value)
      ? { ok: true }
      : {
          ok: false,
          issues: ajv.errors!.map((error) => ({ path: error.instancePath, message: error.message })),
          message: ajv.errors!.map((error) => `${error.instancePath || "(root)"} ${error.message}`).join("; "),
        };

  it("answers exactly what AJV answers", () => {
    for (const value of [null, [], [1], "x", 0, true, {}, { a: 1 }, Object.create(null)]) {
      expect(ours(value)).toEqual(viaAjv(value));
    }
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(ours(value)).toEqual(viaAjv(value));
      }),
      { numRuns: 300 },
    );
  });

  it("hands out issue lists the caller may keep or change", () => {
    const first = ours(1);
    if (first.ok) throw new Error("1 is not an object");
    first.issues[0]!.message = "changed";
    expect(ours(2)).toEqual({ ok: false, issues: [{ path: "", message: "must be object" }], message: "(root) must be object" });
  });

  it("still goes through AJV, and fails at compile time, once the schema says anything more", () => {
    expect(() => compileJsonSchema({ type: "object", properties: { x: { type: "nonsense" } } }, 'inputSchema of tool "t"')).toThrow(
      /^inputSchema of tool "t" is not a valid JSON Schema: /,
    );
    expect(() => compileJsonSchema({ type: "object", $schema: "https://example.com/dialect" }, "x")).toThrow(
      /^x is not a valid JSON Schema: unsupported JSON Schema dialect/,
    );
    const check = compileJsonSchema({ type: "object", required: ["a"] }, "x");
    expect(check({})).toEqual({ ok: false, issues: [{ path: "/a", message: "is required" }], message: "/a is required" });
  });
});
