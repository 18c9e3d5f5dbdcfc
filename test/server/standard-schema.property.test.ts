// The JSON Schema path (our compiler) and the Standard Schema path (the library's own validate) accept and
// refuse the same arguments when the schemas say the same thing, over generated values on both sides of each rule.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { type } from "arktype";
import { McpServer, type ToolSchema } from "mcp-roundtrip/server";
import { pair } from "./helpers.js";

const jsonSchema = {
  type: "object",
  properties: {
    count: { type: "integer", minimum: 0, maximum: 10 },
    code: { type: "string", maxLength: 3 },
    flag: { type: "boolean" },
    level: { enum: ["low", "high"] },
  },
  required: ["count"],
  additionalProperties: false,
} as const;

const zodSchema = z.strictObject({
  count: z.number().int().min(0).max(10),
  code: z.string().max(3).optional(),
  flag: z.boolean().optional(),
  level: z.enum(["low", "high"]).optional(),
});

const arkSchema = type({ count: "0 <= number.integer <= 10", "code?": "string <= 3", "flag?": "boolean", "level?": "'low' | 'high'", "+": "reject" });

function accepting(schema: ToolSchema) {
  const server = new McpServer({ name: "agree", version: "1.0.0" });
  server.tool("t", { inputSchema: schema }, () => ({ content: [{ type: "text", text: "ok" }] }));
  const client = pair(server);
  return async (args: Record<string, unknown>) => {
    const result = (await client.result("tools/call", { name: "t", arguments: args })) as { isError?: boolean };
    return result.isError !== true;
  };
}

const member = fc.oneof(
  fc.integer({ min: -3, max: 13 }),
  fc.double({ min: -3, max: 13, noNaN: true }),
  fc.string({ unit: "grapheme-ascii", maxLength: 5 }),
  fc.boolean(),
  fc.constantFrom("low", "high", "mid"),
  fc.constant(null),
);
// Each member usually of its declared kind, sometimes anything, sometimes absent; an undeclared one now and then.
const declared = fc.record(
  {
    count: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 10 }), weight: 3 }, { arbitrary: member, weight: 1 }),
    code: fc.oneof(fc.string({ unit: "grapheme-ascii", maxLength: 4 }), member),
    flag: fc.oneof({ arbitrary: fc.boolean(), weight: 3 }, { arbitrary: member, weight: 1 }),
    level: fc.oneof({ arbitrary: fc.constantFrom("low", "high"), weight: 3 }, { arbitrary: member, weight: 1 }),
  },
  { requiredKeys: [] },
);
const undeclared = fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: fc.record({ extra: member }), weight: 1 });
const args = fc.tuple(declared, undeclared).map(([known, extra]) => ({ ...known, ...extra }) as Record<string, unknown>);

describe("JSON Schema and Standard Schema agree", () => {
  it("zod 4 and arktype accept and refuse what the equivalent JSON Schema does", async () => {
    const viaJson = accepting(jsonSchema);
    const viaZod = accepting(zodSchema);
    const viaArk = accepting(arkSchema);
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(args, async (value) => {
        const expected = await viaJson(value);
        if (expected) accepted++;
        else refused++;
        expect(await viaZod(value), `zod on ${JSON.stringify(value)}`).toBe(expected);
        expect(await viaArk(value), `arktype on ${JSON.stringify(value)}`).toBe(expected);
      }),
      { numRuns: 300 },
    );
    // The generator must land on both sides, or the agreement says nothing.
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });
});
