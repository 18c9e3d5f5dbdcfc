// Type-level tests of the client by revision: `tsc -p tsconfig.json` (npm test's typecheck) fails when an
// inference stops holding or an @ts-expect-error no longer meets an error; vitest lists them too. The
// clients are only ever declared, never connected: these are types, not runs.
import { describe, expectTypeOf, it } from "vitest";
import {
  Client,
  type CallToolResult,
  type ElicitResult,
  type InputRequestContext,
  type InputRequestHandlers,
  type JsonObject,
  type ListRootsResult,
  type NewestRevision,
  type SchemaParams,
  type SchemaResult,
} from "mcp-roundtrip/client";
import type * as T2025 from "mcp-roundtrip/types/2025-11-25";
import type * as T2026 from "mcp-roundtrip/types/2026-07-28";
import type { McpServer } from "mcp-roundtrip/server";

declare const server: McpServer;

describe("Client.connect types the client by the revision it pins", () => {
  it("without mode (or with auto), the newest served revision's types: Client as existing code names it", () => {
    const connect = () => Client.connect(server);
    const auto = () => Client.connect(server, { mode: "auto" });
    expectTypeOf<NewestRevision>().toEqualTypeOf<"2026-07-28">();
    expectTypeOf(connect).returns.resolves.toEqualTypeOf<Client>();
    expectTypeOf(connect).returns.resolves.toEqualTypeOf<Client<"2026-07-28">>();
    expectTypeOf(auto).returns.resolves.toEqualTypeOf<Client>();
    expectTypeOf<ReturnType<Client["callTool"]>>().resolves.toEqualTypeOf<CallToolResult>();
    expectTypeOf<ReturnType<Client["readResource"]>>().resolves.toEqualTypeOf<T2026.ReadResourceResult>();
    expectTypeOf<ReturnType<Client["listAllTools"]>>().resolves.toEqualTypeOf<T2026.Tool[]>();
    expectTypeOf<ReturnType<Client["discover"]>>().resolves.toEqualTypeOf<T2026.DiscoverResult>();
  });

  it("mode 2026-07-28: that revision's types", () => {
    const connect = () => Client.connect(server, { mode: "2026-07-28" });
    expectTypeOf(connect).returns.resolves.toEqualTypeOf<Client<"2026-07-28">>();
    expectTypeOf<ReturnType<Client<"2026-07-28">["callTool"]>>().resolves.toEqualTypeOf<T2026.CallToolResult>();
    expectTypeOf<ReturnType<Client<"2026-07-28">["getPrompt"]>>().resolves.toEqualTypeOf<T2026.GetPromptResult>();
  });

  it("a handshake-era mode: the 2025-11-25 schema's requests, and results that keep today's types", () => {
    const connect = () => Client.connect(server, { mode: "2025-11-25" });
    const older = () => Client.connect(server, { mode: "2025-06-18" });
    expectTypeOf(connect).returns.resolves.toEqualTypeOf<Client<"2025-11-25">>();
    expectTypeOf(older).returns.resolves.toEqualTypeOf<Client<"2025-11-25">>();
    // A 2025 CallToolResult is stamped resultType "complete": it reads as today's type.
    expectTypeOf<ReturnType<Client<"2025-11-25">["callTool"]>>().resolves.toEqualTypeOf<CallToolResult>();
  });

  it("a mode the client does not speak is a type error", () => {
    // @ts-expect-error "2024-11-05" is no version this client speaks
    const connect = () => Client.connect(server, { mode: "2024-11-05" });
    expectTypeOf(connect).toBeFunction();
  });
});

describe("client.request for the schema's methods", () => {
  const client = {} as Client;
  const pinned2025 = {} as Client<"2025-11-25">;
  // Never called: the calls are here for their types.
  const calls = () => ({
    list: client.request("tools/list"),
    page: client.request("tools/list", { cursor: "t10" }, { signal: AbortSignal.timeout(1000) }),
    call: client.request("tools/call", { name: "provision", arguments: { name: "orders" } }),
    withMeta: client.request("tools/call", { name: "provision", _meta: { progressToken: 1 } }),
    custom: client.request("widgets/list", { cursor: "w10" }, { result: { type: "object" } }),
    handshake: pinned2025.request("tools/call", { name: "provision" }),
    // @ts-expect-error tools/call needs the tool's name
    missingName: client.request("tools/call", { arguments: {} }),
    // @ts-expect-error tools/call's params are required
    noParams: client.request("tools/call"),
    // @ts-expect-error cursor is a string
    badCursor: client.request("tools/list", { cursor: 10 }),
  });

  it("types params without the envelope and resolves with the complete result", () => {
    expectTypeOf(calls).returns.toHaveProperty("list").resolves.toEqualTypeOf<T2026.ListToolsResult>();
    expectTypeOf(calls).returns.toHaveProperty("call").resolves.toEqualTypeOf<T2026.CallToolResult>();
    expectTypeOf(calls).returns.toHaveProperty("custom").resolves.toEqualTypeOf<JsonObject>();
    expectTypeOf(calls).returns.toHaveProperty("handshake").resolves.toEqualTypeOf<T2025.CallToolResult>();
    expectTypeOf<SchemaResult<"2026-07-28", "tools/call">>().toEqualTypeOf<T2026.CallToolResult>();
    expectTypeOf<SchemaParams<"2026-07-28", "tools/call">["name"]>().toEqualTypeOf<string>();
    expectTypeOf<SchemaParams<"2026-07-28", "tools/call">["_meta"]>().toEqualTypeOf<JsonObject | undefined>();
  });
});

describe("onInputRequest is typed from the schema's input kinds", () => {
  it("types each entry's params and result from the kinds of every revision the client speaks", () => {
    const connect = () =>
      Client.connect(server, {
        onInputRequest: {
          "elicitation/create": async (params, context) => {
            expectTypeOf(params).toEqualTypeOf<T2026.ElicitRequestParams | T2025.ElicitRequestParams>();
            expectTypeOf(context).toEqualTypeOf<InputRequestContext>();
            return { action: "decline" };
          },
          "roots/list": () => ({ roots: [{ uri: "file:///work" }] }),
        },
      });
    expectTypeOf(connect).returns.resolves.toEqualTypeOf<Client>();
    expectTypeOf<ReturnType<NonNullable<InputRequestHandlers["elicitation/create"]>>>().toEqualTypeOf<
      ElicitResult | T2025.ElicitResult | Promise<ElicitResult | T2025.ElicitResult>
    >();
    expectTypeOf<Awaited<ReturnType<NonNullable<InputRequestHandlers["roots/list"]>>>>().toEqualTypeOf<ListRootsResult | T2025.ListRootsResult>();
  });

  it("a key that names no kind, or an answer of the wrong shape, is a type error", () => {
    const unknownKind = () =>
      Client.connect(server, {
        onInputRequest: {
          // @ts-expect-error "confirmation/create" is no input-request kind of any revision this client speaks
          "confirmation/create": async () => ({ confirmed: true }),
        },
      });
    const wrongAnswer = () =>
      Client.connect(server, {
        onInputRequest: {
          // @ts-expect-error an elicitation answer needs its action
          "elicitation/create": async () => ({ content: { name: "Ada" } }),
        },
      });
    expectTypeOf(unknownKind).toBeFunction();
    expectTypeOf(wrongAnswer).toBeFunction();
  });
});
