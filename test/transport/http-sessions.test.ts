// 2025 sessions over Streamable HTTP, as a 2025 client sees them on the wire: initialize and its
// Mcp-Session-Id, the back channel on the POST stream, the GET event stream and its resumption,
// DELETE, and every bound and misuse with its status and message.
import { afterEach, describe, expect, it } from "vitest";
import { McpServer, elicit, createHttpHandler, type HttpHandlerOptions } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";
import { META, PROTOCOL_VERSION } from "./helpers.js";
import { INITIALIZE, messagesOf, POST_HEADERS, readEvents, wireClient } from "./session-wire.js";

const regionForm = { type: "object", properties: { region: { type: "string" } }, required: ["region"] } as const;
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function provisioner(legacy?: "sessions" | "stateless" | "reject") {
  const mcp = new McpServer({ name: "http-2025", version: "1.0.0" }, legacy === undefined ? {} : { legacy });
  mcp.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, (args) => text(String(args.text)));
  mcp.tool(
    "provision",
    { inputSchema: { type: "object" }, needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })) },
    (_args, { region }) => text(`in ${region.action === "accept" ? region.content.region : "nowhere"}`),
  );
  mcp.resource("config://app", { name: "config" }, () => "v1");
  return mcp;
}

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

async function serve(server: McpServer, options: HttpHandlerOptions = {}) {
  const handle = await serveHttp(server, { port: 0, ...options });
  handles.push(handle);
  return handle.url;
}

describe("a 2025 session over Streamable HTTP", () => {
  it("initialize names the session in Mcp-Session-Id (visible ASCII) and later requests use it", async () => {
    const client = wireClient(await serve(provisioner()));
    const response = await client.initialize();
    expect(response.status).toBe(200);
    expect(client.session).toMatch(/^[\x21-\x7e]+$/);
    expect((await response.json()).result).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: "http-2025" } });
    expect((await client.post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    const called = await client.post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
    expect(called.status).toBe(200);
    expect(await called.json()).toEqual({ jsonrpc: "2.0", id: 2, result: text("hi") });
  });

  it("asks a need on the call's own SSE stream and finishes there once the client POSTs its answer", async () => {
    const client = wireClient(await serve(provisioner()));
    await client.initialize();
    const response = await client.post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "provision", arguments: {} } });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await readEvents(
      response,
      (seen) => messagesOf(seen).some((message) => message.id === 2 && "result" in message),
      async (event) => {
        if (event.data.trim() === "") return;
        const message = JSON.parse(event.data) as { id?: number; method?: string; params?: { message: string } };
        if (message.method === "elicitation/create") {
          expect(message.params?.message).toBe("Which region?");
          const answered = await client.post({ jsonrpc: "2.0", id: message.id, result: { action: "accept", content: { region: "eu-west-1" } } });
          expect(answered.status).toBe(202);
        }
      },
    );
    expect(events.every((event) => /^\d+-\d+$/.test(event.id ?? ""))).toBe(true);
    expect(messagesOf(events).at(-1)).toEqual({ jsonrpc: "2.0", id: 2, result: text("in eu-west-1") });
  });

  it("sends unrelated messages on the GET stream, one GET stream at a time: a second GET takes over and the first ends", async () => {
    const server = provisioner();
    const client = wireClient(await serve(server));
    await client.initialize();
    const first = await client.get();
    expect(first.status).toBe(200);
    const second = await client.get();
    expect(second.status).toBe(200);
    expect(messagesOf(await readEvents(first, () => false)), "the first connection ended, with nothing on it").toEqual([]);
    server.tool("late", { inputSchema: { type: "object" } }, () => text("late"));
    const events = await readEvents(second, (seen) => messagesOf(seen).length >= 1);
    expect(messagesOf(events)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
  });

  it("keeps what happened while no GET stream was open, and replays a dropped stream after Last-Event-ID", async () => {
    const server = provisioner();
    const client = wireClient(await serve(server));
    await client.initialize();
    expect(await (await client.post({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "config://app" } })).json()).toMatchObject({
      result: {},
    });
    server.resourceUpdated("config://app"); // before any GET: kept for the stream
    const first = await client.get();
    const seen = await readEvents(first, (events) => messagesOf(events).length >= 1);
    expect(messagesOf(seen)).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "config://app" } }]);
    const lastId = seen.at(-1)!.id!;
    // readEvents cancelled the stream: the next update lands in its log while no connection is attached.
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.resourceUpdated("config://app");
    const resumed = await client.get({ "last-event-id": lastId });
    const replayed = await readEvents(resumed, (events) => messagesOf(events).length >= 1);
    expect(messagesOf(replayed)).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "config://app" } }]);
    expect((await client.get({ "last-event-id": "99-1" })).status).toBe(400);
  });

  it("DELETE ends the session; its id then gets 404 saying so", async () => {
    const client = wireClient(await serve(provisioner()));
    await client.initialize();
    expect((await client.delete()).status).toBe(200);
    const after = await client.post({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(after.status).toBe(404);
    expect((await after.json()).error.message).toContain("it ended");
  });

  it("an unknown session id gets 404, and the server keeps serving", async () => {
    const url = await serve(provisioner());
    const response = await fetch(url, {
      method: "POST",
      headers: { ...POST_HEADERS, "mcp-session-id": "not-a-session" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toContain("holds no session with that Mcp-Session-Id");
    expect((await wireClient(url).initialize()).status).toBe(200);
  });

  it("a session idle for longer than sessionIdleTimeoutMs expires", async () => {
    const client = wireClient(await serve(provisioner(), { sessionIdleTimeoutMs: 300 }));
    await client.initialize();
    await new Promise((resolve) => setTimeout(resolve, 1_400));
    const response = await client.post({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toContain("idle for more than");
  });

  it("beyond maxSessions an initialize gets 503 with Retry-After; existing sessions are undisturbed", async () => {
    const url = await serve(provisioner(), { maxSessions: 1 });
    const first = wireClient(url);
    await first.initialize();
    const second = await wireClient(url).initialize();
    expect(second.status).toBe(503);
    expect(second.headers.get("retry-after")).toBe("5");
    expect((await second.json()).error.message).toContain("at most 1 2025 sessions");
    expect((await first.post({ jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(200);
    // A modern client needs no session and is served regardless.
    const modern = await fetch(url, {
      method: "POST",
      headers: { ...POST_HEADERS, "mcp-protocol-version": PROTOCOL_VERSION, "mcp-method": "tools/list" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: META } }),
    });
    expect(modern.status).toBe(200);
  });

  it("a 2025 request without a session id gets 400 saying what to send", async () => {
    const url = await serve(provisioner());
    const response = await fetch(url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain("sends initialize first");
  });

  it("a session that mixes generations gets 400; a wrong version header in a session gets 400", async () => {
    const client = wireClient(await serve(provisioner()));
    await client.initialize();
    const mixed = await client.post({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
    expect(mixed.status).toBe(400);
    expect((await mixed.json()).error.message).toContain("one protocol generation per connection");
    const wrongVersion = await client.post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-protocol-version": "2025-06-18" });
    expect(wrongVersion.status).toBe(400);
    expect((await wrongVersion.json()).error.message).toContain("does not match the version this session agreed on");
  });

  it("a session belongs to the identity that opened it", async () => {
    const url = await serve(provisioner(), {
      verifyToken: (token) => ({ clientId: "app", subject: token, scopes: [] }),
    });
    const alice = wireClient(url, { authorization: "Bearer alice" });
    await alice.initialize();
    const mallory = await fetch(url, {
      method: "POST",
      headers: { ...POST_HEADERS, authorization: "Bearer mallory", "mcp-session-id": alice.session! },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(mallory.status).toBe(404);
    expect((await alice.post({ jsonrpc: "2.0", id: 3, method: "tools/list" })).status).toBe(200);
  });
});

describe("the version header tolerance (preferBodyVersion)", () => {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } };
  const headers = { ...POST_HEADERS, "mcp-protocol-version": "2025-06-18", "mcp-method": "tools/list" };

  it("is strict by default: a 2025 header with a 2026 body gets 400 / -32020", async () => {
    const response = await fetch(await serve(provisioner()), { method: "POST", headers, body: JSON.stringify(body) });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32020);
  });

  it("lets the body win when enabled", async () => {
    const response = await fetch(await serve(provisioner(), { preferBodyVersion: true }), { method: "POST", headers, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    expect((await response.json()).result.resultType).toBe("complete");
  });
});

describe("2025 clients on a server that does not hold sessions", () => {
  it('legacy: "stateless" answers each request on its own: no session id, no GET stream', async () => {
    const url = await serve(provisioner("stateless"));
    const client = wireClient(url);
    const response = await client.initialize();
    expect(response.status).toBe(200);
    expect(client.session).toBeUndefined();
    expect((await client.get()).status).toBe(405);
    const call = await client.post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "provision", arguments: {} } },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect((await call.json()).result).toMatchObject({ isError: true });
  });

  it('legacy: "reject" answers 400 / -32022 naming what the server speaks', async () => {
    const response = await wireClient(await serve(provisioner("reject"))).initialize();
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32022, data: { supported: [...MODERN_VERSIONS], requested: "2025-11-25" } } });
  });

  it("the web-standard handler holds sessions too, and close() ends them", async () => {
    const handler = createHttpHandler(provisioner());
    const initialized = await handler(new Request("http://127.0.0.1/mcp", { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INITIALIZE) }));
    const session = initialized.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    const list = () =>
      handler(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { ...POST_HEADERS, "mcp-session-id": session },
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        }),
      );
    expect((await list()).status).toBe(200);
    handler.close();
    expect((await list()).status).toBe(404);
  });
});
