// Type-level checks of Standard Schema elicitation forms: tsc (npm run typecheck) fails on a wrong type or an
// unused @ts-expect-error. The handler's `content` is the library's output type, after transforms and defaults.
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import * as v from "valibot";
import { type } from "arktype";
import { toJsonSchema } from "@valibot/to-json-schema";
import { McpServer, elicit, needs, type ElicitFormContent, type ElicitQuestion, type Elicitation, type NeedsValues } from "mcp-roundtrip/server";

describe("Standard Schema elicitation forms", () => {
  const profile = z.object({
    name: z.string().transform((name) => name.length),
    plan: z.enum(["free", "pro"]).default("free"),
    note: z.string().optional(),
  });

  it("types a zod form's content as zod's output", () => {
    const question = elicit({ message: "Profile?", schema: profile });
    expectTypeOf(question).toEqualTypeOf<ElicitQuestion<typeof profile>>();
    expectTypeOf<ElicitFormContent<typeof profile>>().toEqualTypeOf<{ name: number; plan: "free" | "pro"; note?: string | undefined }>();
    const declared = needs().add("profile", () => question);
    expectTypeOf<NeedsValues<typeof declared>["profile"]>().toEqualTypeOf<Elicitation<{ name: number; plan: "free" | "pro"; note?: string | undefined }>>();
  });

  it("types valibot (with its converter) and arktype forms from their outputs, in a tool's handler", () => {
    const greet = v.object({ name: v.string(), times: v.optional(v.number(), 1) });
    const order = type({ count: "string.numeric.parse", "gift?": "boolean" });
    new McpServer({ name: "t", version: "1" }).tool(
      "t",
      {
        needs: (need) =>
          need
            .add("greet", () => elicit({ message: "Greet?", schema: greet, toJsonSchema: (schema) => toJsonSchema(schema as typeof greet) }))
            .add("order", () => elicit({ message: "Order?", schema: order })),
      },
      (_args, { greet: answer, order: placed }) => {
        if (answer.action === "accept") expectTypeOf(answer.content).toEqualTypeOf<{ name: string; times: number }>();
        if (placed.action === "accept") expectTypeOf(placed.content).toEqualTypeOf<{ count: number; gift?: boolean }>();
        // @ts-expect-error no content unless the user accepted
        expectTypeOf(answer.content.name).toBeString();
        return { content: [] };
      },
    );
  });

  it("keeps the JSON Schema path as it was, and refuses what is neither", () => {
    const form = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;
    expectTypeOf(elicit({ message: "Sure?", schema: form })).toEqualTypeOf<ElicitQuestion<typeof form>>();
    expectTypeOf<ElicitFormContent<typeof form>>().toEqualTypeOf<{ yes: boolean }>();
    // @ts-expect-error a toJsonSchema converter is for a Standard Schema only
    expectTypeOf(() => elicit({ message: "Sure?", schema: form, toJsonSchema: () => ({}) })).toBeFunction();
    // @ts-expect-error a form is a JSON Schema object or a Standard Schema
    expectTypeOf(() => elicit({ message: "Sure?", schema: { type: "string" } })).toBeFunction();
  });
});
