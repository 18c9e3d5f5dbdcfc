import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { elicit } from "mcp-roundtrip/server";
import { checkElicitContent, checkElicitSchema, type ElicitSchema } from "../../runtime/server/dependencies/elicitation-schema.js";

const form = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2, maxLength: 5 },
    email: { type: "string", format: "email" },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    site: { type: "string", format: "uri" },
    count: { type: "integer", minimum: 1, maximum: 3 },
    ratio: { type: "number", minimum: 0, maximum: 1 },
    ok: { type: "boolean" },
    region: { type: "string", enum: ["eu", "us"] },
    tier: {
      type: "string",
      oneOf: [
        { const: "gold", title: "Gold" },
        { const: "free", title: "Free" },
      ],
    },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2 },
    picks: {
      type: "array",
      items: {
        anyOf: [
          { const: "x", title: "X" },
          { const: "y", title: "Y" },
        ],
      },
    },
  },
  required: ["name"],
} as const satisfies ElicitSchema;

describe("elicitation schema subset", () => {
  it("accepts every primitive field kind the protocol defines", () => {
    expect(checkElicitSchema(form)).toEqual([]);
  });

  it.each([
    ["not an object", "nope", ""],
    ["type other than object", { type: "array", properties: {} }, "/type"],
    ["missing properties", { type: "object" }, "/properties"],
    ["nested object field", { type: "object", properties: { a: { type: "object" } } }, "/properties/a/type"],
    ["unknown format", { type: "object", properties: { a: { type: "string", format: "ipv4" } } }, "/properties/a/format"],
    ["empty enum", { type: "object", properties: { a: { type: "string", enum: [] } } }, "/properties/a/enum"],
    ["non-string enum", { type: "object", properties: { a: { type: "string", enum: [1] } } }, "/properties/a/enum"],
    ["bad oneOf option", { type: "object", properties: { a: { type: "string", oneOf: [{ const: "x" }] } } }, "/properties/a/oneOf"],
    ["array without options", { type: "object", properties: { a: { type: "array", items: { type: "string" } } } }, "/properties/a/items"],
    ["negative minLength", { type: "object", properties: { a: { type: "string", minLength: -1 } } }, "/properties/a/minLength"],
    ["infinite maximum", { type: "object", properties: { a: { type: "number", maximum: Infinity } } }, "/properties/a/maximum"],
    ["required names an unknown field", { type: "object", properties: {}, required: ["ghost"] }, "/required"],
    ["field name with a slash is escaped", { type: "object", properties: { "a/b": { type: "date" } } }, "/properties/a~1b/type"],
  ])("rejects %s", (_label, schema, path) => {
    const issues = checkElicitSchema(schema);
    expect(issues.map((issue) => issue.path)).toContain(path);
  });

  it("elicit() refuses a schema outside the subset with a message naming the path", () => {
    expect(() => elicit({ message: "Where?", schema: { type: "object", properties: { a: { type: "object" } } } as never })).toThrow(/\/properties\/a\/type/);
    expect(() => elicit({ message: " ", schema: { type: "object", properties: {} } })).toThrow(TypeError);
  });
});

describe("elicitation content", () => {
  const valid = {
    name: "Ann",
    email: "ann@example.org",
    day: "2026-02-28",
    at: "2026-07-28T10:00:00Z",
    site: "https://example.org/x",
    count: 2,
    ratio: 0.5,
    ok: true,
    region: "eu",
    tier: "gold",
    tags: ["a", "c"],
    picks: ["y"],
  };

  it("accepts content that meets every constraint, and only the required fields", () => {
    expect(checkElicitContent(form, valid)).toEqual([]);
    expect(checkElicitContent(form, { name: "Bo" })).toEqual([]);
  });

  it.each([
    ["missing required field", { ratio: 1 }, "/name"],
    ["too short", { name: "A" }, "/name"],
    ["too long (counted in code points)", { name: "😀😀😀😀😀😀" }, "/name"],
    ["not an email", { name: "Ann", email: "ann" }, "/email"],
    ["impossible date", { name: "Ann", day: "2026-02-30" }, "/day"],
    ["date-time without zone", { name: "Ann", at: "2026-07-28T10:00:00" }, "/at"],
    ["not a uri", { name: "Ann", site: "no scheme here" }, "/site"],
    ["fraction for an integer", { name: "Ann", count: 1.5 }, "/count"],
    ["below minimum", { name: "Ann", count: 0 }, "/count"],
    ["above maximum", { name: "Ann", ratio: 1.01 }, "/ratio"],
    ["string for a number", { name: "Ann", ratio: "0.5" }, "/ratio"],
    ["string for a boolean", { name: "Ann", ok: "true" }, "/ok"],
    ["value outside enum", { name: "Ann", region: "ap" }, "/region"],
    ["value outside oneOf", { name: "Ann", tier: "silver" }, "/tier"],
    ["option outside items.enum", { name: "Ann", tags: ["z"] }, "/tags/0"],
    ["too many selected", { name: "Ann", tags: ["a", "b", "c"] }, "/tags"],
    ["too few selected", { name: "Ann", tags: [] }, "/tags"],
    ["repeated option", { name: "Ann", picks: ["x", "x"] }, "/picks"],
    ["field the form did not ask for", { name: "Ann", extra: 1 }, "/extra"],
  ])("rejects %s", (_label, content, path) => {
    expect(checkElicitContent(form, content).map((issue) => issue.path)).toContain(path);
  });

  it("rejects content that is not an object", () => {
    expect(checkElicitContent(form, ["Ann"])).not.toEqual([]);
    expect(checkElicitContent(form, null)).not.toEqual([]);
  });

  it("integer bounds: accepts exactly the integers in range (property)", () => {
    const schema = { type: "object", properties: { n: { type: "integer", minimum: -5, maximum: 5 } }, required: ["n"] } as const;
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -20, max: 20 }), fc.double({ noNaN: true }), fc.string()), (n) => {
        const ok = checkElicitContent(schema, { n }).length === 0;
        expect(ok).toBe(typeof n === "number" && Number.isInteger(n) && n >= -5 && n <= 5);
      }),
    );
  });

  it("string length: accepts exactly the strings within bounds (property)", () => {
    const schema = { type: "object", properties: { s: { type: "string", minLength: 1, maxLength: 4 } }, required: ["s"] } as const;
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite", maxLength: 8 }), (s) => {
        const length = [...s].length;
        expect(checkElicitContent(schema, { s }).length === 0).toBe(length >= 1 && length <= 4);
      }),
    );
  });
});
