// A `required` entry that names no property is refused when the tool is registered, naming the entry and where it is,
// for every schema form: inputSchema and outputSchema as JSON Schema, and the JSON Schema a Standard Schema converts to.
// (The type-level twin, for literal schemas, is in test/types/tools.test.ts.)
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { jsonSchema, McpServer } from "mcp-roundtrip/server";

// Never called: an error result fits every tool, with or without an outputSchema.
const text = () => ({ content: [{ type: "text" as const, text: "" }], isError: true as const });
const server = () => new McpServer({ name: "required-names", version: "1.0.0" });
// Schemas typed loosely, as a program that builds them at run time holds them (a literal would not compile).
const loose = (schema: Record<string, unknown>): Record<string, unknown> => schema;

describe("McpServer.tool refuses required entries that name no property", () => {
  it("in inputSchema, naming the tool, the entry, where it is and the names it could be", () => {
    const schema = loose({ type: "object", properties: { name: { type: "string" }, count: { type: "integer" } }, required: ["name", "nmae"] });
    expect(() => server().tool("greet", { inputSchema: schema }, text)).toThrow(
      new TypeError(
        'McpServer.tool("greet"): inputSchema: required entry "nmae" at #/required names no property (it lists "name", "count"); ' +
          "fix the entry, or add the property to the properties beside it",
      ),
    );
  });

  it("in outputSchema, nested in properties, items and combinator branches", () => {
    const nested = loose({
      type: "object",
      properties: { owner: { type: "object", properties: { id: { type: "string" } }, required: ["ID"] } },
    });
    expect(() => server().tool("owner", { outputSchema: nested }, text)).toThrow(/outputSchema: required entry "ID" at #\/properties\/owner\/required/);
    const rows = loose({ type: "object", properties: { rows: { type: "array", items: { type: "object", properties: { id: {} }, required: ["key"] } } } });
    expect(() => server().tool("rows", { inputSchema: rows }, text)).toThrow(/inputSchema: required entry "key" at #\/properties\/rows\/items\/required/);
    const branch = loose({ type: "object", properties: { a: {} }, anyOf: [{ properties: { b: {} }, required: ["a", "c"] }] });
    expect(() => server().tool("branch", { inputSchema: branch }, text)).toThrow(/required entry "c" at #\/anyOf\/0\/required .*"b", "a"/);
  });

  it("in the JSON Schema a Standard Schema converts to", () => {
    const form = v.object({ name: v.string() });
    const misconverted = () => ({ type: "object", properties: { name: { type: "string" } }, required: ["title"] });
    const mcp = new McpServer({ name: "converted", version: "1.0.0" }, { toJsonSchema: misconverted });
    expect(() => mcp.tool("in", { inputSchema: form }, text)).toThrow(/McpServer\.tool\("in"\): inputSchema: required entry "title" at #\/required/);
    expect(() => mcp.tool("out", { outputSchema: form }, text)).toThrow(/McpServer\.tool\("out"\): outputSchema: required entry "title"/);
  });

  it("takes required entries where the schema admits other members, branches naming their parent's properties, and no properties", () => {
    const mcp = server();
    mcp.tool("open", { inputSchema: loose({ type: "object", properties: { a: {} }, additionalProperties: { type: "number" }, required: ["a", "b"] }) }, text);
    mcp.tool("patterns", { inputSchema: loose({ type: "object", properties: { a: {} }, patternProperties: { "^x": {} }, required: ["x1"] }) }, text);
    mcp.tool(
      "branches",
      { inputSchema: loose({ type: "object", properties: { id: {}, email: {} }, oneOf: [{ required: ["id"] }, { required: ["email"] }] }) },
      text,
    );
    mcp.tool("bare", { inputSchema: loose({ type: "object", required: ["anything"] }) }, text);
    mcp.tool("closed", { inputSchema: loose({ type: "object", properties: { a: {} }, additionalProperties: false, required: ["a"] }) }, text);
  });
});

describe("jsonSchema()", () => {
  it("returns the schema itself, and throws naming an entry that names no property", () => {
    const schema = { type: "object", properties: { x: { type: "number" } }, required: ["x"] } as const;
    expect(jsonSchema(schema)).toBe(schema);
    expect(() => jsonSchema(loose({ type: "object", properties: { x: {} }, required: ["z"] }))).toThrow(
      /^jsonSchema: required entry "z" at #\/required names no property \(it lists "x"\)/,
    );
    expect(() => jsonSchema("nope" as never)).toThrow(new TypeError("jsonSchema: expected a JSON Schema object, got string"));
  });
});
