// CORS on both HTTP bindings: preflights for origins on the allow-list get
// 204 with what a browser needs, others get nothing it could use; answers to
// allowed origins (JSON, SSE, 401 challenges, 2025 sessions) expose the
// headers an MCP client must read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpHandler, type HttpHandlerOptions, McpServer } from "mcp-roundtrip/server";
import { serveHttp } from "mcp-roundtrip/node";
import type { MessageHandler } from "../../runtime/transport/types.js";
import { mcpHeaders, rpc } from "./helpers.js";

const APP = "https://app.example";
const EVIL = "https://evil.example";

type Send = (method: string, headers: Record<string, string>, body?: string) => Promise<Response>;

const bindings = [
  {
    name: "web-standard handler",
    async start(server: MessageHandler, options: HttpHandlerOptions) {
      const handle = createHttpHandler(server, options);
      const send: Send = (method, headers, body) => handle(new Request("http://127.0.0.1/mcp", { method, headers, body }));
      return { send, close: async () => handle.close() };
    },
  },
  {
    name: "node:http adapter",
    async start(server: MessageHandler, options: HttpHandlerOptions) {
      const http = await serveHttp(server, options);
      const send: Send = (method, headers, body) => fetch(http.url, { method, headers, body });
      return { send, close: () => http.close() };
    },
  },
];

function demoServer(): McpServer {
  const server = new McpServer({ name: "cors-demo", version: "1.0.0" });
  server.tool("hello", { inputSchema: { type: "object", properties: { who: { type: "string" } } } }, ({ who }) => ({
    content: [{ type: "text", text: `hello ${String(who)}` }],
  }));
  server.tool("slow", {}, async (_args, ctx) => {
    await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
    return { content: [{ type: "text", text: "done" }] };
  });
  return server;
}

const preflight = (origin: string, requestHeaders = "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region") => ({
  origin,
  "access-control-request-method": "POST",
  "access-control-request-headers": requestHeaders,
});

describe.each(bindings)("CORS ($name)", (binding) => {
  let send: Send;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ send, close } = await binding.start(demoServer(), { allowedOrigins: [APP], corsMaxAgeSeconds: 120 }));
  });
  afterAll(() => close());

  it("answers a preflight from an allowed origin with 204 and what the browser may send", async () => {
    const response = await send("OPTIONS", preflight(APP));
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region");
    expect(response.headers.get("access-control-max-age")).toBe("120");
    expect(response.headers.get("vary")).toContain("Origin");
    expect(await response.text()).toBe("");
  });

  it("refuses a preflight from another origin, with no CORS header the browser could use", async () => {
    const response = await send("OPTIONS", preflight(EVIL));
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("does not reflect requested headers that are not a plain list of names", async () => {
    const response = await send("OPTIONS", preflight(APP, "content-type, x-a;b=1"));
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toContain("MCP-Protocol-Version");
    expect(response.headers.get("access-control-allow-headers")).not.toContain("x-a");
  });

  it("lets an allowed origin read the answer and the MCP headers", async () => {
    const response = await send(
      "POST",
      { ...mcpHeaders("tools/call", "hello"), origin: APP },
      JSON.stringify(rpc("tools/call", { name: "hello", arguments: { who: "web" } })),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-expose-headers")).toBe("Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate");
    expect(response.headers.get("vary")).toBe("Origin");
    expect(((await response.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe("hello web");
  });

  it("adds the same headers to an SSE answer", async () => {
    const call = rpc("tools/call", { name: "slow", arguments: {} });
    (call.params._meta as Record<string, unknown>)["io.modelcontextprotocol/logLevel"] = "debug";
    const response = await send("POST", { ...mcpHeaders("tools/call", "slow"), origin: APP }, JSON.stringify(call));
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-expose-headers")).toContain("MCP-Protocol-Version");
    expect(await response.text()).toContain('"done"');
  });

  it("exposes the session id of a 2025 initialize to an allowed origin", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "b", version: "1" } },
    };
    const response = await send(
      "POST",
      { "content-type": "application/json", accept: "application/json, text/event-stream", origin: APP },
      JSON.stringify(initialize),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toMatch(/.+/);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");
    await response.body?.cancel();
  });

  it("refuses a request from another origin with 403 and no CORS header", async () => {
    const response = await send("POST", { ...mcpHeaders("tools/call", "hello"), origin: EVIL }, JSON.stringify(rpc("tools/call", { name: "hello", arguments: {} })));
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("adds nothing for a client that sends no Origin, and keeps 405 for a bare OPTIONS", async () => {
    const response = await send("POST", mcpHeaders("tools/call", "hello"), JSON.stringify(rpc("tools/call", { name: "hello", arguments: {} })));
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    await response.text();
    expect((await send("OPTIONS", {})).status).toBe(405);
  });
});

describe.each(bindings)("CORS with bearer authentication ($name)", (binding) => {
  let send: Send;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ send, close } = await binding.start(demoServer(), {
      allowedOrigins: [APP],
      verifyToken: (token) => (token === "good" ? { token, clientId: "web", scopes: [] } : null),
      resourceMetadataUrl: "https://auth.example/.well-known/oauth-protected-resource",
    }));
  });
  afterAll(() => close());

  it("answers the preflight without a token, and lets the page read the 401 challenge", async () => {
    const pre = await send("OPTIONS", preflight(APP, "authorization, content-type"));
    expect(pre.status).toBe(204);
    const response = await send("POST", { ...mcpHeaders("tools/call", "hello"), origin: APP }, JSON.stringify(rpc("tools/call", { name: "hello", arguments: {} })));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("resource_metadata=");
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
  });
});

describe("CORS options", () => {
  it("rejects a negative or fractional preflight lifetime", () => {
    expect(() => createHttpHandler(demoServer(), { corsMaxAgeSeconds: -1 })).toThrow(RangeError);
    expect(() => createHttpHandler(demoServer(), { corsMaxAgeSeconds: 1.5 })).toThrow(/non-negative integer/);
  });

  it("grants loopback origins by default, as the Origin check does", async () => {
    const handle = createHttpHandler(demoServer());
    const ok = await handle(new Request("http://127.0.0.1/mcp", { method: "OPTIONS", headers: preflight("http://localhost:5173") }));
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const refused = await handle(new Request("http://127.0.0.1/mcp", { method: "OPTIONS", headers: preflight(APP) }));
    expect(refused.status).toBe(403);
    handle.close();
  });
});
