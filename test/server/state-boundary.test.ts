// The request-state boundary on its own: which methods it guards, how it fails closed.
import { describe, expect, it } from "vitest";
import {
  inputRequired,
  InvalidRequestState,
  McpServer,
  MemoryReplayStore,
  RequestStateSecurity,
  requestStateBoundary,
  Server,
  type RequestStateSealer,
} from "mcp-roundtrip/server";
import { classifyMessage } from "../../runtime/protocol/message.js";
import { meta, pair, recordingLogger } from "./helpers.js";

const FIXED = { code: -32602, message: "Invalid or expired requestState", data: { reason: "invalid_request_state" } };
const quiet = { logger: { warn() {} } };
const quietServer = { logger: { warn() {}, error() {} } };

function guarded(sealer: RequestStateSealer, options: Parameters<typeof requestStateBoundary>[1] = {}) {
  const logger = recordingLogger();
  const calls: { method: string; state: unknown }[] = [];
  const server = new Server(
    { name: "guarded", version: "1" },
    {
      onCallTool: (params, ctx) => {
        calls.push({ method: "tools/call", state: ctx.requestState });
        return ctx.requestState === undefined
          ? inputRequired({ requestState: `state-for-${params.name}` })
          : { content: [{ type: "text", text: ctx.requestState }] };
      },
      onGetPrompt: (_params, ctx) => (
        calls.push({ method: "prompts/get", state: ctx.requestState }), ctx.requestState === undefined ? inputRequired({ requestState: "p" }) : { messages: [] }
      ),
      onReadResource: (params, ctx) => (
        calls.push({ method: "resources/read", state: ctx.requestState }),
        ctx.requestState === undefined ? inputRequired({ requestState: "r" }) : { contents: [{ uri: params.uri, text: "x" }] }
      ),
      onListTools: (params) => (calls.push({ method: "tools/list", state: (params as unknown as Record<string, unknown>).requestState }), { tools: [] }),
    },
    { logger },
  );
  server.use(requestStateBoundary(sealer, options));
  return { client: pair(server), calls, logger };
}

describe("requestStateBoundary", () => {
  it("round-trips on all three methods that may ask", async () => {
    const { client } = guarded(new RequestStateSecurity({ keys: ["k".repeat(32)] }, quiet), { audience: "guarded" });
    for (const [method, params] of [
      ["tools/call", { name: "t" }],
      ["prompts/get", { name: "p" }],
      ["resources/read", { uri: "file:///a" }],
    ] as const) {
      const first = await client.result(method, params);
      expect(first.requestState).toMatch(/^v1\./);
      expect((await client.result(method, { ...params, requestState: first.requestState })).resultType).toBe("complete");
    }
  });

  it("rejects a token on every guarded method before its handler runs, and leaves other methods alone", async () => {
    const { client, calls } = guarded(new RequestStateSecurity({ keys: ["k".repeat(32)] }, quiet));
    for (const [method, params] of [
      ["tools/call", { name: "t" }],
      ["prompts/get", { name: "p" }],
      ["resources/read", { uri: "file:///a" }],
    ] as const) {
      expect(await client.error(method, { ...params, requestState: "v1.AAAA" })).toEqual(FIXED);
    }
    expect(calls).toEqual([]);
    // tools/list has no requestState in its schema, and the boundary does not look at it.
    expect((await client.result("tools/list", { requestState: "whatever" })).resultType).toBe("complete");
  });

  it("fails closed when a custom sealer throws something other than InvalidRequestState, logging it", async () => {
    const sealer: RequestStateSealer = {
      mint: async (input) => `plain:${input.state}`,
      verify: async () => {
        throw new Error("KMS unavailable");
      },
    };
    const { client, calls, logger } = guarded(sealer);
    expect(await client.error("tools/call", { name: "t", requestState: "plain:x" })).toEqual(FIXED);
    expect(calls).toEqual([]);
    expect(logger.warnings.join()).toContain("failing closed");
  });

  it("reports a custom sealer's own rejection reason to the server's logger", async () => {
    const sealer: RequestStateSealer = {
      mint: (input) => `plain:${input.state}`,
      verify: () => {
        throw new InvalidRequestState("unknown token format");
      },
    };
    const { client, logger } = guarded(sealer);
    expect(await client.error("tools/call", { name: "t", requestState: "zzz" })).toEqual(FIXED);
    expect(logger.warnings).toEqual(["tools/call: requestState rejected (unknown token format)"]);
  });

  it("answers -32603 when sealing fails, without the cause on the wire", async () => {
    const sealer: RequestStateSealer = {
      mint: () => {
        throw new RangeError("state too large: secret-ish detail");
      },
      verify: (token) => token,
    };
    const { client, logger } = guarded(sealer);
    const error = await client.error("tools/call", { name: "t" });
    expect(error).toEqual({ code: -32603, message: "Internal error: could not seal requestState" });
    expect(logger.errors).toHaveLength(1);
    expect(String((logger.errors[0]!.details!.cause as Error).message)).toContain("state too large");
  });

  it("binds to the principal the security derives from the transport context (bindPrincipal)", async () => {
    const security = new RequestStateSecurity({ keys: ["k".repeat(32)] }, { ...quiet, bindPrincipal: (context) => context.headers?.get("x-user") ?? undefined });
    const { client } = guarded(security);
    const as = (user: string) => ({ headers: new Headers({ "x-user": user }) });
    const first = await client.result("tools/call", { name: "t" }, as("ann"));
    expect(await client.error("tools/call", { name: "t", requestState: first.requestState }, as("ben"))).toEqual(FIXED);
    expect((await client.result("tools/call", { name: "t", requestState: first.requestState }, as("ann"))).content).toEqual([{ type: "text", text: "state-for-t" }]);
  });

  it("binds to an explicit principal resolver when given", async () => {
    const security = new RequestStateSecurity({ keys: ["k".repeat(32)] }, quiet);
    let tenant = "a";
    const { client } = guarded(security, { principal: () => tenant });
    const first = await client.result("tools/call", { name: "t" });
    tenant = "b";
    expect(await client.error("tools/call", { name: "t", requestState: first.requestState })).toEqual(FIXED);
  });

  it("rejects misuse with a TypeError", () => {
    expect(() => requestStateBoundary({} as never)).toThrow(TypeError);
    expect(() => requestStateBoundary(RequestStateSecurity.ephemeral(), { audience: "" })).toThrow(/audience/);
  });
  it.each([[42], [{ forged: true }], [["v1.AAAA"]], [true]])(
    "answers a requestState that is not a string (%j) with the fixed rejection, before the schema check and the handler",
    async (token) => {
      const { client, calls, logger } = guarded(new RequestStateSecurity({ keys: ["k".repeat(32)] }, quiet));
      expect(await client.error("tools/call", { name: "t", requestState: token })).toEqual(FIXED);
      expect(calls).toEqual([]);
      expect(logger.warnings.join()).toContain("not a string");
    },
  );

  it("leaves a non-string requestState to the schema check on a server without the boundary", async () => {
    const bare = new Server({ name: "bare", version: "1" }, { onCallTool: () => ({ content: [] }) }, quietServer);
    const error = await pair(bare).error("tools/call", { name: "t", requestState: 42 });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("/params/requestState");
  });

  it("binds tokens to the server's name when no audience is given, so services sharing a key refuse each other's", async () => {
    const key = "shared-secret-".repeat(3);
    const serverNamed = (name: string) => {
      const server = new Server(
        { name, version: "1" },
        { onCallTool: (_p, ctx) => (ctx.requestState === undefined ? inputRequired({ requestState: "s" }) : { content: [] }) },
        quietServer,
      );
      return pair(server.use(requestStateBoundary(new RequestStateSecurity({ keys: [key] }, quiet))));
    };
    const billing = serverNamed("billing");
    const token = (await billing.result("tools/call", { name: "t" })).requestState;
    expect((await billing.result("tools/call", { name: "t", requestState: token })).resultType).toBe("complete");
    expect(await serverNamed("inventory").error("tools/call", { name: "t", requestState: token })).toEqual(FIXED);
  });
});

describe("requestStateBoundary with RequestStateSecurity answers a sealed round at once", () => {
  // A round answered at once is written in the turn its request arrived: no promise for the transport to wait on.
  const request = (id: number, params: Record<string, unknown>) => ({
    jsonrpc: "2.0" as const,
    id,
    method: "tools/call",
    params: { _meta: meta({ elicitation: { form: {} } }), name: "t", arguments: { n: 1 }, ...params },
  });
  /** How an HTTP transport hands a message over: classified once, answered at once or by a promise. */
  const answer = (server: McpServer, id: number, params: Record<string, unknown>): unknown => server.handleClassified(classifyMessage(request(id, params)));
  const servers = {
    "McpServer's own per-process key": () => confirmServer(undefined),
    "an explicit RequestStateSecurity": () => confirmServer(new RequestStateSecurity({ keys: ["k".repeat(32)] }, quiet)),
  };

  for (const [name, make] of Object.entries(servers)) {
    it(`mints and verifies without a promise (${name}), and still refuses a rebound or tampered token`, async () => {
      const server = make();
      const first = answer(server, 1, {});
      expect(first).not.toBeInstanceOf(Promise);
      const token = (first as { result: { requestState: string } }).result.requestState;
      expect(token).toMatch(/^v1\./);
      const second = answer(server, 2, { requestState: token, inputResponses: { ok: { action: "accept", content: { ok: true } } } });
      expect(second).not.toBeInstanceOf(Promise);
      expect((second as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe("done 1");
      // Rebound to other arguments, or one character changed: the fixed rejection (the middlewares are told first).
      const rebound = await answer(server, 3, { arguments: { n: 2 }, requestState: token, inputResponses: {} });
      expect((rebound as { error: unknown }).error).toEqual(FIXED);
      for (let at = 0; at < token.length; at++) {
        const tampered = `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
        const refused = await answer(server, 10 + at, { requestState: tampered, inputResponses: {} });
        expect((refused as { error: unknown }).error, `character ${at} changed`).toEqual(FIXED);
      }
    });
  }

  it("still spends a one-time token with a replay store, where the round waits for the store", async () => {
    const server = confirmServer(new RequestStateSecurity({ keys: ["k".repeat(32)] }, { ...quiet, replay: new MemoryReplayStore() }));
    const token = ((await answer(server, 1, {})) as { result: { requestState: string } }).result.requestState;
    const retry = { requestState: token, inputResponses: { ok: { action: "accept", content: { ok: true } } } };
    const second = answer(server, 2, retry);
    expect(second).toBeInstanceOf(Promise);
    expect(((await second) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe("done 1");
    // The commit lands a turn after the answer left.
    await new Promise((resolve) => setImmediate(resolve));
    expect(((await answer(server, 3, retry)) as { error: unknown }).error).toEqual(FIXED);
  });
});

/** A tool that asks once, then completes with the state it sealed. */
function confirmServer(requestStateSecurity: RequestStateSecurity | undefined): McpServer {
  const server = new McpServer(
    { name: "confirmer", version: "1" },
    { ...(requestStateSecurity === undefined ? {} : { requestStateSecurity }), logger: quietServer.logger },
  );
  server.tool("t", { inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }, ({ n }: { n: number }, ctx) =>
    ctx.inputResponses?.ok === undefined
      ? inputRequired({
          inputRequests: {
            ok: {
              method: "elicitation/create",
              params: { mode: "form", message: "ok?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } },
            },
          },
          requestState: `done ${n}`,
        })
      : { content: [{ type: "text", text: ctx.requestState! }] },
  );
  return server;
}
