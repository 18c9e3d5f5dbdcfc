import { describe, expectTypeOf, it } from "vitest";
import type { CreateMessageResult, Root } from "mcp-roundtrip/types";
import {
  McpServer,
  UriTemplate,
  elicit,
  elicitUrl,
  listRoots,
  needs,
  sample,
  type NeedsValues,
  type UriTemplateVariables,
  type UrlElicitation,
} from "mcp-roundtrip/server";

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

  it("McpServer.prompt types the resolvers' arguments and the body's values", () => {
    const server = new McpServer({ name: "types-check", version: "1.0.0" });
    server.prompt(
      "inline",
      { needs: (need) => need.add("region", (args) => (expectTypeOf(args).toEqualTypeOf<Record<string, string>>(), declaration.entries.length)) },
      (args, { region }, ctx) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
        expectTypeOf(region).toEqualTypeOf<number>();
        expectTypeOf(ctx.inputResponses).not.toBeAny();
        return [];
      },
    );
    server.prompt("typed", { needs: needs<{ topic: string }>().add("n", () => "x") }, (args, { n }) => {
      expectTypeOf(args).toEqualTypeOf<{ topic: string }>();
      expectTypeOf(n).toEqualTypeOf<string>();
      return { messages: [] };
    });
    // @ts-expect-error "missing" is not declared
    server.prompt("wrong", { needs: (need) => need.add("n", () => 2) }, (_args, { missing }) => (missing ? [] : []));
    // Without needs the handler keeps its (args, ctx) form.
    server.prompt("plain", {}, (args, ctx) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
      expectTypeOf(ctx.requestState).toEqualTypeOf<string | undefined>();
      return [];
    });
  });

  it("McpServer.resource types a template's variables and values; a static resource takes no needs", () => {
    const server = new McpServer({ name: "types-check", version: "1.0.0" });
    server.resource(
      "report://{quarter}",
      { needs: (need) => need.add("format", (variables) => (expectTypeOf(variables).toEqualTypeOf<{ quarter: string }>(), true)) },
      (uri, variables, { format }, ctx) => {
        expectTypeOf(uri).toEqualTypeOf<string>();
        // Typed from the template literal; still assignable to the general UriTemplateVariables.
        expectTypeOf(variables).toEqualTypeOf<{ quarter: string }>();
        expectTypeOf(variables).toMatchTypeOf<UriTemplateVariables>();
        expectTypeOf(format).toEqualTypeOf<boolean>();
        expectTypeOf(ctx.requestState).toEqualTypeOf<string | undefined>();
        return "x";
      },
    );
    server.resource(new UriTemplate("notes2://{id}"), { needs: needs().add("k", () => 1) }, (_uri, variables, { k }) => {
      // A UriTemplate object is not a literal type: its variables stay general.
      expectTypeOf(variables).toEqualTypeOf<UriTemplateVariables>();
      expectTypeOf(k).toEqualTypeOf<number>();
      return "x";
    });
    // @ts-expect-error "missing" is not declared
    server.resource("wrong://{x}", { needs: (need) => need.add("n", () => 2) }, (_uri, _variables, { missing }) => String(missing));
    // @ts-expect-error a static resource cannot declare needs
    expectTypeOf(() => server.resource("config://app", { needs: needs() }, () => "x")).toBeFunction();
  });
  it("types a URL elicitation as the user's action alone, with no content", () => {
    const linked = needs<{ account: string }>()
      .add("link", (args) => elicitUrl({ message: "Connect", url: `https://app.example.com/connect?a=${args.account}` }))
      .add("after", (_args, { link }) => {
        expectTypeOf(link.action).toEqualTypeOf<"accept" | "decline" | "cancel">();
        // @ts-expect-error a URL elicitation carries no content, not even on accept
        expectTypeOf(link.content).toBeUnknown();
        return link.action === "accept";
      });
    expectTypeOf<NeedsValues<typeof linked>["link"]>().toEqualTypeOf<UrlElicitation>();
    expectTypeOf<NeedsValues<typeof linked>["after"]>().toEqualTypeOf<boolean>();
  });
});
