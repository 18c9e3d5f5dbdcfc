import { describe, expectTypeOf, it } from "vitest";
import type { CreateMessageResult, Root } from "mcp-roundtrip/types";
import { McpServer, elicit, listRoots, needs, sample, type NeedsValues } from "mcp-roundtrip/server";

// Type-level checks: tsc (npm run typecheck) fails on a wrong type or an unused @ts-expect-error.
describe("dependency types", () => {
  const declaration = needs<{ name: string }>()
    .add("region", () =>
      elicit({
        message: "Region?",
        schema: {
          type: "object",
          properties: {
            region: { type: "string", enum: ["eu", "us"] },
            tier: { type: "string", oneOf: [{ const: "gold", title: "Gold" }] },
            note: { type: "string" },
            gb: { type: "integer" },
            ok: { type: "boolean" },
            tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
          },
          required: ["region", "gb"],
        },
      }),
    )
    .add("roots", () => listRoots())
    .add("summary", (args, { region, roots }) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string }>();
      expectTypeOf(roots[0]!.uri).toEqualTypeOf<string>();
      if (region.action === "accept") expectTypeOf(region.content.region).toEqualTypeOf<"eu" | "us">();
      return sample({ messages: [{ role: "user", content: { type: "text", text: args.name } }], maxTokens: 5 });
    })
    .add("label", async (_args, { summary }) => summary.model.length);

  type Values = NeedsValues<typeof declaration>;

  it("types an accepted elicitation's content from its schema", () => {
    type Region = Values["region"];
    expectTypeOf<Extract<Region, { action: "accept" }>["content"]>().toEqualTypeOf<{
      region: "eu" | "us";
      gb: number;
      tier?: "gold";
      note?: string;
      ok?: boolean;
      tags?: ("a" | "b")[];
    }>();
    expectTypeOf<Extract<Region, { action: "decline" }>["content"]>().toEqualTypeOf<undefined>();
  });

  it("types plain and async values, sampling results and roots", () => {
    expectTypeOf<Values["label"]>().toEqualTypeOf<number>();
    expectTypeOf<Values["summary"]["model"]>().toEqualTypeOf<string>();
    expectTypeOf<Values["roots"]>().toEqualTypeOf<Root[]>();
    expectTypeOf<Values["summary"]>().toEqualTypeOf<CreateMessageResult>();
  });

  it("refuses a duplicate key and reading an undeclared one", () => {
    // @ts-expect-error "region" is already declared
    expectTypeOf(() => declaration.add("region", () => 1)).toBeFunction();
    // @ts-expect-error "later" is not declared before this resolver
    expectTypeOf(() => needs().add("a", (_args, { later }) => later)).toBeFunction();
  });

  it("McpServer.tool types the handler from the declaration, arguments included", () => {
    const server = new McpServer({ name: "types-check", version: "1.0.0" });
    server.tool("typed", { needs: declaration }, (args, values, ctx) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string }>();
      expectTypeOf(values.label).toEqualTypeOf<number>();
      expectTypeOf(ctx.requestState).toEqualTypeOf<string | undefined>();
      return { content: [{ type: "text", text: args.name }] };
    });
    server.tool("inline", { needs: (need) => need.add("n", () => 2) }, (_args, { n }) => {
      expectTypeOf(n).toEqualTypeOf<number>();
      return { content: [] };
    });
    // @ts-expect-error "missing" is not declared
    server.tool("wrong", { needs: (need) => need.add("n", () => 2) }, (_args, { missing }) => ({ content: missing ? [] : [] }));
  });
});
