// A replay store that cannot be reached (Redis down, a command timing out) is
// not a dead token: nothing is accepted, but the answer is "temporarily
// unavailable" (-32603, data.reason "temporarily_unavailable", HTTP 503 with
// Retry-After), and this SDK's client sends the very same round again, so the
// user is not asked twice. Every other rejection keeps the fixed -32602.
import { describe, expect, it } from "vitest";
import { Client, McpError, type ElicitResult } from "mcp-roundtrip/client";
import { serveHttp } from "mcp-roundtrip/node";
import { inputRequired, McpServer, RequestStateUnavailable } from "mcp-roundtrip/server";
import { MemoryReplayStore, RequestStateSecurity, type ReplayStore } from "../../runtime/state/index.js";
import { recordingLogger, rejectionOf, SECRET } from "./helpers.js";

const call = { method: "tools/call", target: "pay", arguments: { amount: 10 } };
const confirmForm = { type: "object" as const, properties: { yes: { type: "boolean" as const } }, required: ["yes"] };

/** A memory store whose claims fail while `down` is true, as a Redis client's do during an outage. */
function flakyStore(): ReplayStore & { down: boolean; claims: number } {
  const inner = new MemoryReplayStore();
  const store = {
    down: false,
    claims: 0,
    async claim(...args: Parameters<MemoryReplayStore["claim"]>) {
      store.claims++;
      if (store.down) throw new Error("Socket closed unexpectedly");
      return inner.claim(...args);
    },
    commit: (...args: Parameters<MemoryReplayStore["commit"]>) => inner.commit(...args),
    release: (...args: Parameters<MemoryReplayStore["release"]>) => inner.release(...args),
  };
  return store;
}

function payServer(replay: ReplayStore, logger = recordingLogger()) {
  const security = new RequestStateSecurity({ keys: [SECRET] }, { replay, logger });
  const server = new McpServer({ name: "pay", version: "1.0.0" }, { requestStateSecurity: security });
  let charged = 0;
  server.tool("pay", { inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] } }, (args, ctx) => {
    const answer = ctx.inputResponses?.confirm as ElicitResult | undefined;
    if (ctx.requestState !== "asked" || answer?.content?.yes !== true) {
      return inputRequired({
        inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form", message: `Pay ${args.amount}?`, requestedSchema: confirmForm } } },
        requestState: "asked",
      });
    }
    charged++;
    return { content: [{ type: "text", text: `paid ${args.amount}` }] };
  });
  return { server, logger, charged: () => charged };
}

describe("verifyOnce with an unreachable replay store", () => {
  it("throws RequestStateUnavailable (retryable, -32603), logs replay_store_error, and accepts nothing", async () => {
    const store = flakyStore();
    const logger = recordingLogger();
    const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: store, logger });
    const token = await security.mint({ ...call, state: "charge" });
    store.down = true;
    const error = await security.verifyOnce(token, call).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RequestStateUnavailable);
    expect((error as McpError).toJSON()).toEqual({
      code: -32603,
      message: "Temporarily unavailable: send the same request again (same requestState and inputResponses) in a moment",
      data: { reason: "temporarily_unavailable", retryAfterSeconds: 1 },
    });
    expect(logger.rejections.map((rejection) => rejection.reason)).toEqual(["replay_store_error"]);
    // Back up: the same token is accepted once, then refused as replayed (the fixed rejection).
    store.down = false;
    await expect(security.verifyOnce(token, call)).resolves.toMatchObject({ state: "charge" });
    await rejectionOf(security.verifyOnce(token, call));
  });

  it("a forged token is still the fixed -32602 while the store is down: the store is asked only about genuine tokens", async () => {
    const store = flakyStore();
    const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: store, logger: recordingLogger() });
    const token = await security.mint({ ...call, state: "charge" });
    store.down = true;
    const forged = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    await rejectionOf(security.verifyOnce(forged, call));
    await rejectionOf(security.verifyOnce(token, { ...call, target: "refund" }));
    expect(store.claims).toBe(0);
  });
});

describe("over HTTP, with this SDK's client", () => {
  it("answers 503 with Retry-After and the retryable error; a raw retry after the outage completes", async () => {
    const store = flakyStore();
    const { server } = payServer(store);
    const handle = await serveHttp(server, { port: 0 });
    try {
      const client = await Client.connect(handle.url, { capabilities: { elicitation: { form: {} } } });
      const first = await client.session.callTool("pay", { amount: 10 }, { allowInputRequired: true });
      expect(first).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
      await client.close();
      store.down = true;
      const body = (requestState: string) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "pay",
            arguments: { amount: 10 },
            inputResponses: { confirm: { action: "accept", content: { yes: true } } },
            requestState,
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } },
          },
        });
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "pay",
      };
      const state = (first as { requestState: string }).requestState;
      const refused = await fetch(handle.url, { method: "POST", headers, body: body(state) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ id: 2, error: { code: -32603, data: { reason: "temporarily_unavailable" } } });
      store.down = false;
      const accepted = await fetch(handle.url, { method: "POST", headers, body: body(state) });
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toMatchObject({ id: 2, result: { content: [{ text: "paid 10" }] } });
    } finally {
      await handle.close();
    }
  });

  it("the client sends the same round again until the store is back: the user is asked once, the payment made once", async () => {
    const store = flakyStore();
    const { server, charged } = payServer(store);
    const handle = await serveHttp(server, { port: 0 });
    let asked = 0;
    const client = await Client.connect(handle.url, {
      onElicit: async () => {
        asked++;
        store.down = true; // the store goes away while the user answers
        setTimeout(() => (store.down = false), 1_500);
        return { action: "accept", content: { yes: true } };
      },
    });
    try {
      const result = await client.callTool("pay", { amount: 25 });
      expect(result).toMatchObject({ content: [{ text: "paid 25" }] });
      expect(asked).toBe(1);
      expect(charged()).toBe(1);
      expect(store.claims).toBeGreaterThanOrEqual(2); // refused at least once while down, then accepted
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it("gives up after unavailableRetryMs with the retryable error; 0 never retries", async () => {
    const store = flakyStore();
    const { server } = payServer(store);
    const handle = await serveHttp(server, { port: 0 });
    const answer = async () => {
      store.down = true;
      return { action: "accept" as const, content: { yes: true } };
    };
    try {
      for (const unavailableRetryMs of [0, 300]) {
        const client = await Client.connect(handle.url, { onElicit: answer, unavailableRetryMs });
        const started = Date.now();
        const error = await client.callTool("pay", { amount: 1 }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).data).toMatchObject({ reason: "temporarily_unavailable" });
        expect(Date.now() - started).toBeLessThan(unavailableRetryMs + 1_000);
        store.down = false;
        await client.close();
      }
      await expect(Client.connect(handle.url, { unavailableRetryMs: -1 })).rejects.toThrow(/unavailableRetryMs must be a finite number of milliseconds ≥ 0/);
    } finally {
      await handle.close();
    }
  });
});
