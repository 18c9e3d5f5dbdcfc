// What an idle 2025 session keeps, and that keeping little changes nothing a client sees: sessions of
// one client app share their handshake record yet none of their state, ids stay unguessable, and a
// session idle for months (past the range of the small-integer clock idle sessions are timed on) still
// works, then still expires.
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpServer, createHttpHandler, type SessionHost } from "mcp-roundtrip/server";
import { rawSession } from "./raw-legacy-session.js";

const DAY_MS = 86_400_000;
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

const JSON_ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** POSTs a JSON-RPC message to a web-standard handler, with extra headers (a session's). */
function poster(handle: (request: Request) => Promise<Response>) {
  return (body: unknown, extra: Record<string, string> = {}) =>
    handle(new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...JSON_ACCEPT, ...extra }, body: JSON.stringify(body) }));
}

/** A 2025 `initialize` from a client named `name`. */
const initialize = (name: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name, version: "1" } },
});

function server() {
  const mcp = new McpServer({ name: "idle-2025", version: "1.0.0" });
  mcp.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, (args) => text(String(args.text)));
  mcp.resource("config://app", { name: "config" }, () => "v1");
  return mcp;
}

/** What LegacySession exposes of its handshake (not on the ServerSession contract). */
interface Declared {
  clientCapabilities: Record<string, unknown>;
  clientInfo: Record<string, unknown> | undefined;
  logLevel: string | undefined;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("idle 2025 sessions", () => {
  it("two sessions with identical capabilities share no mutable state", async () => {
    const mcp = server();
    const capabilities = { elicitation: {}, roots: { listChanged: true } };
    const a = rawSession(mcp);
    const b = rawSession(mcp);
    await a.initialize(capabilities);
    await b.initialize(JSON.parse(JSON.stringify(capabilities)) as Record<string, unknown>);
    const [declaredA, declaredB] = [a.session as unknown as Declared, b.session as unknown as Declared];
    expect(declaredA.clientCapabilities).toEqual(capabilities);
    expect(declaredB.clientCapabilities).toEqual(capabilities);
    // The caller's objects are neither kept nor frozen: changing them later changes no session.
    expect(Object.isFrozen(capabilities)).toBe(false);
    (capabilities.roots as Record<string, unknown>).listChanged = false;
    expect(declaredA.clientCapabilities).toEqual({ elicitation: {}, roots: { listChanged: true } });
    // What a session keeps may be shared, so it cannot be changed through one session.
    expect(Object.isFrozen(declaredA.clientCapabilities)).toBe(true);
    expect(Object.isFrozen(declaredA.clientCapabilities.roots)).toBe(true);
    expect(Object.isFrozen(declaredA.clientInfo)).toBe(true);
    expect(() => {
      (declaredB.clientCapabilities as Record<string, unknown>).sampling = {};
    }).toThrow(TypeError);
    // Each session's own state stays its own.
    expect(await a.request("logging/setLevel", { level: "error" })).toMatchObject({ result: {} });
    expect(declaredA.logLevel).toBe("error");
    expect(declaredB.logLevel).toBeUndefined();
    expect(await a.request("resources/subscribe", { uri: "config://app" })).toMatchObject({ result: {} });
    mcp.resourceUpdated("config://app");
    await vi.waitFor(() => expect(a.outbound).toHaveLength(1));
    expect(b.outbound).toEqual([]);
    expect(a.session.id).not.toBe(b.session.id);
  });

  it("capabilities that JSON would not carry exactly are kept as given", async () => {
    const raw = rawSession(server());
    const capabilities = { elicitation: {}, experimental: undefined };
    await raw.initialize(capabilities);
    const declared = (raw.session as unknown as Declared).clientCapabilities;
    expect(declared).toBe(capabilities);
    expect("experimental" in declared).toBe(true);
  });

  it("session ids are 22 base64url characters, all distinct", () => {
    const mcp = server();
    const ids = new Set(Array.from({ length: 1_000 }, () => mcp.openSession({ send: () => {} }).id));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("the server counts and reaches the sessions an HTTP endpoint keeps, without an entry of its own for each", async () => {
    const mcp = server();
    const handle = createHttpHandler(mcp);
    const raw = rawSession(mcp);
    await raw.initialize();
    const post = poster(handle);
    const opened: string[] = [];
    for (let i = 0; i < 2; i++) opened.push((await post(initialize("idle"))).headers.get("mcp-session-id")!);
    expect(mcp.server.openSessions).toBe(3);
    const deleted = await handle(new Request("http://127.0.0.1/mcp", { method: "DELETE", headers: { "mcp-session-id": opened[0]! } }));
    expect(deleted.status).toBe(200);
    expect(mcp.server.openSessions).toBe(2);
    handle.close();
    expect(mcp.server.openSessions).toBe(1);
    // A broadcast after the endpoint closed reaches the session still open, and nothing else.
    mcp.tool("later", { inputSchema: { type: "object" } }, () => text("late"));
    await vi.waitFor(() => expect(raw.outbound).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]));
  });

  it("a session host of the application's own gets a peer per session over HTTP: calls, its GET stream and DELETE work as with McpServer", async () => {
    const mcp = server();
    // Not this package's server, so the endpoint cannot open its sessions on one shared peer.
    const host: SessionHost = { legacy: "sessions", handle: (message, context) => mcp.handle(message, context), openSession: (peer) => mcp.openSession(peer) };
    const handle = createHttpHandler(host);
    const post = poster(handle);
    const opened = await post(initialize("own-host"));
    expect(opened.status).toBe(200);
    const session = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
    const call = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "own" } } }, session);
    expect(await call.json()).toEqual({ jsonrpc: "2.0", id: 2, result: text("own") });
    const stream = await handle(new Request("http://127.0.0.1/mcp", { method: "GET", headers: { accept: "text/event-stream", ...session } }));
    expect(stream.status).toBe(200);
    mcp.tool("later", { inputSchema: { type: "object" } }, () => text("late"));
    const reader = stream.body!.getReader();
    let received = "";
    while (!received.includes("notifications/tools/list_changed")) received += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const deleted = await handle(new Request("http://127.0.0.1/mcp", { method: "DELETE", headers: session }));
    expect(deleted.status).toBe(200);
    expect((await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, session)).status).toBe(404);
    handle.close();
  });

  it("a session idle for months still works over HTTP, and still expires once idle longer than its timeout", async () => {
    const handle = createHttpHandler(server(), { sessionIdleTimeoutMs: 365 * DAY_MS });
    const post = poster(handle);
    const opened = await post(initialize("idle"));
    const session = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
    const start = Date.now();
    const now = vi.spyOn(Date, "now").mockReturnValue(start + 200 * DAY_MS);
    const call = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "still here" } } }, session);
    expect(await call.json()).toEqual({ jsonrpc: "2.0", id: 2, result: text("still here") });
    now.mockReturnValue(start + 566 * DAY_MS);
    // Opening another session sweeps the idle ones.
    await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "idle", version: "1" } },
    });
    const late = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, session);
    expect(late.status).toBe(404);
    expect((await late.json()).error.message).toContain("idle for more than");
    handle.close();
  });
});
