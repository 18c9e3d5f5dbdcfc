// Type-level checks of the input kinds and schema methods read from the generated maps: tsc (npm run typecheck)
// fails on a wrong type or an unused @ts-expect-error.
import { describe, expectTypeOf, it } from "vitest";
import { McpServer, Server, ask, inputRequired, needs, type InputRequestInit, type NeedsValues, type ServedInputKind } from "mcp-roundtrip/server";
import type { CreateMessageResult, ElicitResult, ListRootsResult } from "mcp-roundtrip/types";

const MESSAGES = [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }];

describe("input kinds, server side", () => {
  it("inputRequired takes a request of every served kind, an as-const form included, and nothing else", () => {
    expectTypeOf<ServedInputKind>().toEqualTypeOf<"elicitation/create" | "roots/list" | "sampling/createMessage">();
    const form = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;
    inputRequired({
      inputRequests: {
        a: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: form } },
        b: { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com" } },
        c: { method: "sampling/createMessage", params: { messages: MESSAGES, maxTokens: 5 } },
        d: { method: "roots/list" },
      },
    });
    // @ts-expect-error no input-request kind of any served revision
    inputRequired({ inputRequests: { a: { method: "tools/call", params: { name: "x" } } } });
    // @ts-expect-error sampling needs maxTokens
    inputRequired({ inputRequests: { a: { method: "sampling/createMessage", params: { messages: MESSAGES } } } });
    expectTypeOf<Extract<InputRequestInit, { method: "roots/list" }>>().not.toBeNever();
  });

  it("ask gives the handler the kind's result type, and checks its params", () => {
    const declared = needs()
      .add("ok", () => ask("elicitation/create", { message: "Sure?", requestedSchema: { type: "object", properties: {} } }))
      .add("name", () => ask("sampling/createMessage", { messages: MESSAGES, maxTokens: 5 }))
      .add("roots", () => ask("roots/list"));
    expectTypeOf<NeedsValues<typeof declared>["ok"]>().toEqualTypeOf<ElicitResult>();
    expectTypeOf<NeedsValues<typeof declared>["name"]>().toEqualTypeOf<CreateMessageResult>();
    expectTypeOf<NeedsValues<typeof declared>["roots"]>().toEqualTypeOf<ListRootsResult>();
    // Typed only, never run: each would throw at run time too.
    const untyped = () => {
      // @ts-expect-error sampling takes params
      ask("sampling/createMessage");
      // @ts-expect-error not an input-request kind
      ask("tools/list", {});
    };
    void untyped;
    new McpServer({ name: "t", version: "1" }).tool(
      "t",
      { needs: (need) => need.add("ok", () => ask("elicitation/create", { message: "Go?", requestedSchema: { type: "object", properties: {} } })) },
      (_args, { ok }) => {
        expectTypeOf(ok.action).toEqualTypeOf<"accept" | "cancel" | "decline">();
        return { content: [] };
      },
    );
  });
});

describe("setRequestHandler for schema methods", () => {
  it("types a built-in's params (without _meta) and result (without resultType) from the schema, behind override: true", () => {
    const server = new Server({ name: "t", version: "1" }, {});
    server.setRequestHandler("tools/list", { override: true }, (params) => {
      expectTypeOf(params.cursor).toEqualTypeOf<string | undefined>();
      // @ts-expect-error the envelope is in ctx, not in params
      void params._meta;
      return { tools: [] };
    });
    const untyped = (other: Server) => {
      // @ts-expect-error a built-in method needs { override: true }
      other.setRequestHandler("tools/list", () => ({ tools: [] }));
      // @ts-expect-error the result is a ListToolsResult
      other.setRequestHandler("tools/list", { override: true }, () => ({ tools: "none" }));
      // @ts-expect-error tools/list may not ask for input
      other.setRequestHandler("tools/list", { override: true }, () => inputRequired({ requestState: "s" }));
    };
    void untyped;
    new McpServer({ name: "t", version: "1" }).setRequestHandler("tools/call", { override: true }, (params) => {
      expectTypeOf(params.name).toEqualTypeOf<string>();
      return params.name === "ask" ? inputRequired({ requestState: "s" }) : { content: [] };
    });
  });

  it("keeps schemas for methods in no schema", () => {
    const server = new McpServer({ name: "t", version: "1" });
    server.setRequestHandler("widgets/list", { params: { type: "object" }, revisions: ["2026-07-28"] }, (params) => {
      expectTypeOf(params).toEqualTypeOf<Record<string, unknown>>();
      return { widgets: [] };
    });
    const untyped = () => {
      // @ts-expect-error a method in no schema takes its options first
      server.setRequestHandler("widgets/other", () => ({ widgets: [] }));
    };
    void untyped;
  });
});
