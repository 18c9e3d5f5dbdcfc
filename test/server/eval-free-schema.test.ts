// The eval-free schema compiler (@cfworker/json-schema behind our schema
// checks) must accept and reject exactly what AJV does: on the tool schemas
// of the everything-server, and on generated schemas with pattern, bounds,
// nested arrays, enums, required, additionalProperties and combinators,
// against values built to land on both sides of each schema.
import { spawnSync } from "node:child_process";
import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { createServer as createProvisionServer } from "../../examples/dependencies/provision.js";
import { createEverythingServer } from "../../examples/everything-server/server.js";
import { createWorkerServer } from "../../examples/worker/worker.js";
import { Client, MODERN_PROTOCOL_VERSION } from "../../runtime/client/index.js";
import { compileJsonSchema } from "../../runtime/server/schema/json-schema.js";
import { McpServer } from "../../runtime/server/index.js";
import type { SchemaCompiler } from "../../runtime/server/schema/schema-check.js";
import { resolveSchemaCompiler as portableCompiler } from "../../runtime/server/schema/schema-compiler-portable.js";
import { createEvalFreeCompiler } from "../../runtime/server/schema/schema-eval-free.js";

const evalFree = createEvalFreeCompiler(Validator);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, Json> | boolean;

/** Compiles with one compiler: its validator, or the error it refused the schema with. */
function compiled(compile: SchemaCompiler, schema: unknown) {
  try {
    // A fresh copy each time: AJV caches by object identity, and a cached schema skips its meta-schema check.
    return { validate: compile(structuredClone(schema), "schema") };
  } catch (error) {
    return { error: error as Error };
  }
}

/** Both compilers agree on whether `schema` compiles and, if it does, on every value. */
function expectSameAnswers(schema: unknown, values: readonly unknown[]): void {
  const ajv = compiled(compileJsonSchema, schema);
  const ours = compiled(evalFree, schema);
  expect(ours.error === undefined, `compiles ${JSON.stringify(schema)}: AJV ${ajv.error?.message ?? "yes"}, eval-free ${ours.error?.message ?? "yes"}`).toBe(
    ajv.error === undefined,
  );
  if (ajv.validate === undefined || ours.validate === undefined) return;
  for (const value of values) {
    expect(ours.validate(value).ok, `${JSON.stringify(value)} against ${JSON.stringify(schema)}`).toBe(ajv.validate(value).ok);
  }
}

const name = fc.constantFrom("a", "b", "id", "tags", "x-y", "n");
const patterns = ["^[a-z]+$", "^\\d{3}-\\d{4}$", "^(foo|bar)", "o{2,}", "^[A-Z][a-z]*$", "\\p{L}+"];
const leaf: fc.Arbitrary<Record<string, Json>> = fc.oneof(
  fc.record(
    {
      type: fc.constant("string"),
      pattern: fc.option(fc.constantFrom(...patterns), { nil: undefined }),
      minLength: fc.option(fc.nat(4), { nil: undefined }),
      maxLength: fc.option(fc.integer({ min: 2, max: 8 }), { nil: undefined }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constantFrom("integer", "number"),
      minimum: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
      maximum: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      exclusiveMinimum: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
      multipleOf: fc.option(fc.constantFrom(2, 3, 5), { nil: undefined }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({
    enum: fc.uniqueArray(fc.oneof(fc.constantFrom("red", "green", 1, 2.5, true, null), fc.constant({ k: 1 })), {
      minLength: 1,
      maxLength: 4,
      selector: (v) => JSON.stringify(v),
    }),
  }),
  fc.record({ const: fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 3 }), fc.constant([1, 2])) }),
  fc.record({ type: fc.constantFrom("boolean", "null") }),
  fc.record({ type: fc.constant(["string", "null"]) }),
) as fc.Arbitrary<Record<string, Json>>;

/** Schemas in the subset tools use: objects of typed members, nested arrays, combinators, some broken on purpose. */
const { schema } = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(name, tie("schema"), { maxKeys: 4 }),
        required: fc.uniqueArray(name, { maxLength: 3 }),
        additionalProperties: fc.oneof(fc.boolean(), leaf),
        minProperties: fc.nat(2),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      {
        type: fc.constant("array"),
        items: tie("schema"),
        minItems: fc.nat(2),
        maxItems: fc.integer({ min: 1, max: 4 }),
        uniqueItems: fc.boolean(),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: tie("schema") }),
    // Broken schemas both must refuse at compile time.
    fc.constantFrom<Schema>(
      { type: "nonsense" },
      { pattern: "(" },
      { minimum: "1" },
      { required: "a" },
      { minLength: -1 },
      { properties: { a: 3 } },
      { $ref: "https://example.com/s" },
      { enum: [] },
      { multipleOf: 0 },
      { type: [] },
      { items: [{ type: "string" }] },
      { $ref: "#/$defs/missing" },
    ),
  ),
})) as { schema: fc.Arbitrary<Schema> };

/**
 * Arbitrary JSON without members named like Object.prototype's methods:
 * AJV's deep equality (uniqueItems, enum, const) calls `value.toString()`
 * and throws on `{"toString": ""}` (the server then rejects the value, see
 * the test below), which is AJV's bug, not a difference to mirror. And
 * numbers within ±1e15 and, but for 0, no closer to 0 than 1e-300: AJV
 * decides `multipleOf` by float division and `parseInt`, which rejects every
 * number from 1e21 on and accepts a subnormal such as -5e-324 as a multiple
 * of 5 (the quotient underflows to 0), where the eval-free validator computes
 * exactly in decimal (docs/runtimes.md lists this).
 */
const json = fc.jsonValue({ maxDepth: 2 }).filter(function clean(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(clean);
  if (typeof value === "object" && value !== null) return Object.entries(value).every(([key, member]) => !(key in Object.prototype) && clean(member));
  return typeof value !== "number" || withinFloatDivision(value);
});

/** Whether AJV's float division decides `multipleOf` for `value` the way exact decimal does. */
function withinFloatDivision(value: number): boolean {
  return value === 0 || (Math.abs(value) >= 1e-300 && Math.abs(value) < 1e15);
}

/** Values shaped by the schema (so many pass), mixed with arbitrary JSON (so many fail). */
function valuesFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const any = json;
  if (typeof schema === "boolean" || depth > 4) return any;
  const options: fc.Arbitrary<unknown>[] = [any];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) options.push(fc.constantFrom(...schema.enum));
  if ("const" in schema) options.push(fc.constant(schema.const));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const type of types) {
    if (type === "string") {
      options.push(typeof schema.pattern === "string" ? fc.stringMatching(new RegExp(schema.pattern as string, "u")) : fc.string({ maxLength: 10 }));
    }
    if (type === "integer") options.push(fc.integer({ min: -10, max: 30 }));
    if (type === "number") options.push(fc.oneof(fc.integer({ min: -10, max: 30 }), fc.double({ min: -10, max: 30, noNaN: true }).filter(withinFloatDivision)));
    if (type === "object" && typeof schema.properties === "object" && schema.properties !== null) {
      const members = Object.fromEntries(Object.entries(schema.properties as Record<string, Schema>).map(([key, sub]) => [key, valuesFor(sub, depth + 1)]));
      options.push(
        fc
          .tuple(fc.record(members, { requiredKeys: [] }), fc.option(fc.dictionary(fc.constantFrom("extra", "zz"), any, { maxKeys: 1 }), { nil: undefined }))
          .map(([record, extra]) => ({ ...record, ...extra })),
      );
    }
    if (type === "array") options.push(fc.array(valuesFor((schema.items as Schema) ?? true, depth + 1), { maxLength: 5 }));
  }
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    if (Array.isArray(schema[key])) for (const sub of schema[key] as Schema[]) options.push(valuesFor(sub, depth + 1));
  }
  return fc.oneof(...options);
}

describe("the eval-free schema compiler answers what AJV answers", () => {
  it("on the tool schemas of the examples (everything-server, worker, declared dependencies)", async () => {
    const schemas: unknown[] = [];
    for (const server of [createEverythingServer(), createWorkerServer(), createProvisionServer()]) {
      const client = await Client.connect(server, { mode: MODERN_PROTOCOL_VERSION });
      const { tools } = await client.listTools();
      await client.close();
      schemas.push(...tools.flatMap((tool) => [tool.inputSchema, ...(tool.outputSchema ? [tool.outputSchema] : [])]));
    }
    expect(schemas.length).toBeGreaterThan(10);
    for (const toolSchema of schemas) {
      fc.assert(
        fc.property(fc.array(valuesFor(toolSchema as Schema), { maxLength: 8 }), (values) => expectSameAnswers(toolSchema, values)),
        { numRuns: 30 },
      );
    }
  });

  it("on generated schemas with pattern, bounds, nested arrays, enums, required, additionalProperties and combinators", () => {
    fc.assert(
      fc.property(
        schema.chain((generated) => fc.tuple(fc.constant(generated), fc.array(valuesFor(generated), { minLength: 1, maxLength: 12 }))),
        ([generated, values]) => {
          expectSameAnswers(
            { type: "object", properties: { value: generated }, required: ["value"] },
            values.map((value) => ({ value })),
          );
          expectSameAnswers(generated, values);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("on draft-07 schemas, with $ref into definitions", () => {
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      definitions: { point: { type: "array", items: [{ type: "number" }, { type: "number" }], additionalItems: false } },
      properties: { path: { type: "array", items: { $ref: "#/definitions/point" }, minItems: 1 } },
      required: ["path"],
    };
    expectSameAnswers(draft7, [{ path: [[1, 2]] }, { path: [] }, { path: [[1, 2, 3]] }, { path: [["a", 1]] }, {}, { path: [[1]] }]);
  });
});

describe("the eval-free compiler's answers", () => {
  const check = evalFree(
    {
      type: "object",
      properties: { zip: { type: "string", pattern: "^\\d{5}$" }, n: { type: "integer", minimum: 1 } },
      required: ["zip"],
      additionalProperties: false,
    },
    "inputSchema",
  );

  it("name the member at fault, one issue each", () => {
    expect(check({ zip: "1234", n: 0, extra: true })).toEqual({
      ok: false,
      issues: [
        { path: "/zip", message: "String does not match pattern." },
        { path: "/n", message: "0 is less than 1." },
        { path: "/extra", message: "is not allowed" },
      ],
      message: "/zip String does not match pattern.; /n 0 is less than 1.; /extra is not allowed",
    });
    expect(check({})).toEqual({ ok: false, issues: [{ path: "/zip", message: "is required" }], message: "/zip is required" });
    expect(check({ zip: "12345" })).toEqual({ ok: true });
  });

  it("refuses a broken schema at registration, saying where", () => {
    expect(() => evalFree({ type: "object", properties: { a: { type: "array", items: { pattern: "[" } } } }, 'inputSchema of tool "t"')).toThrow(
      /inputSchema of tool "t" is not a valid JSON Schema: #\/properties\/a\/items\/pattern is not a valid regular expression/,
    );
  });

  it('is what the portable build picks, and it refuses "ajv" there with what to use instead', () => {
    expect(() => portableCompiler("ajv")).toThrow(/"auto" or "eval-free"/);
    const auto = portableCompiler("auto")({ type: "object", properties: { n: { type: "integer", minimum: 3 } } }, "s");
    expect(auto({ n: 2 }).ok).toBe(false);
    expect(auto({ n: 3 }).ok).toBe(true);
  });

  it("serves McpServer tools chosen by name, and rejects an unknown choice", async () => {
    const server = new McpServer({ name: "edge", version: "1.0.0" }, { compileSchema: "eval-free" });
    server.tool(
      "sum",
      { inputSchema: { type: "object", properties: { xs: { type: "array", items: { type: "array", items: { type: "number", minimum: 0 } } } }, required: ["xs"] } },
      ({ xs }) => ({ content: [{ type: "text", text: String((xs as number[][]).flat().reduce((a, b) => a + b, 0)) }] }),
    );
    const client = await Client.connect(server, { mode: MODERN_PROTOCOL_VERSION });
    expect(await client.callTool("sum", { xs: [[1, 2], [3]] })).toMatchObject({ content: [{ text: "6" }] });
    expect(await client.callTool("sum", { xs: [[1, -2]] })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("/xs/0/1") }] });
    await client.close();
    expect(() => new McpServer({ name: "x", version: "1" }, { compileSchema: "fast" as never })).toThrow(/"auto", "ajv", "eval-free" or a function/);
  });
});

describe("a value the validator itself fails on", () => {
  it("is a tool error the caller can read, on AJV (whose deep equality throws on it) as on the eval-free path", async () => {
    for (const compileSchema of ["ajv", "eval-free"] as const) {
      const server = new McpServer({ name: "odd-values", version: "1.0.0" }, { compileSchema });
      server.tool("t", { inputSchema: { type: "object", properties: { xs: { type: "array", uniqueItems: true } } } }, () => ({
        content: [{ type: "text", text: "ran" }],
      }));
      const client = await Client.connect(server, { mode: MODERN_PROTOCOL_VERSION });
      const result = await client.callTool("t", { xs: [{ a: 1 }, { toString: "" }] });
      await client.close();
      if (compileSchema === "ajv")
        expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("could not be checked against the schema") }] });
      else expect(result).toMatchObject({ content: [{ text: "ran" }] });
    }
  });
});

describe("auto-pick where the runtime forbids generating code", () => {
  beforeAll(() => ensureBuilt("runtime/entries/server.js"), 180_000);

  it("node --disallow-code-generation-from-strings serves a schema AJV would need new Function for", () => {
    const source = `
      const { McpServer } = await import("mcp-roundtrip/server");
      const { Client, MODERN_PROTOCOL_VERSION } = await import("mcp-roundtrip/client");
      let evalWorks = true;
      try { new Function("return 1"); } catch { evalWorks = false; }
      const server = new McpServer({ name: "no-eval", version: "1.0.0" });
      server.tool("zip", { inputSchema: { type: "object", properties: { zip: { type: "string", pattern: "^\\\\d{5}$" }, n: { type: "array", items: { type: "integer", minimum: 1 } } }, required: ["zip"] } },
        ({ zip }) => ({ content: [{ type: "text", text: "ok " + zip }] }));
      const client = await Client.connect(server, { mode: MODERN_PROTOCOL_VERSION });
      const good = await client.callTool("zip", { zip: "12345", n: [1, 2] });
      const bad = await client.callTool("zip", { zip: "1234", n: [0] });
      console.log(JSON.stringify({ evalWorks, good: good.content[0].text, bad: bad.isError === true, why: bad.content[0].text }));`;
    const run = spawnSync(process.execPath, ["--disallow-code-generation-from-strings", "--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { evalWorks: boolean; good: string; bad: boolean; why: string };
    expect(out).toMatchObject({ evalWorks: false, good: "ok 12345", bad: true });
    expect(out.why).toContain("/zip");
    expect(out.why).toContain("/n/0");
  });
});
