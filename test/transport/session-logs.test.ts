// At logLevel "debug" the server says when each 2025 session opened (client, protocol) and why it
// closed: the client's DELETE, the idle timeout, or the endpoint shutting down. Never the whole id.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { McpServer } from "mcp-roundtrip/server";

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

function loggedServer() {
  const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
  const logger = { debug: (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields }), warn() {}, error() {} };
  const server = new McpServer({ name: "sessions-logged", version: "1.0.0" }, { logger, logLevel: "debug" });
  server.tool("ping", { inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "pong" }] }));
  return { server, lines: () => lines.filter((line) => line.message.startsWith("2025 session ")) };
}

async function connect2025(url: string) {
  const transport = new StreamableHttpClientTransport(url);
  const client = await Client.connect(transport, { mode: "2025-11-25", clientInfo: { name: "logs-test", version: "2.0.0" } });
  return { client, transport };
}

/** A 2025 initialize POSTed by hand: the session opens, and nothing else is sent. */
async function initializeByHand(url: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
    }),
  });
  expect(response.headers.get("mcp-session-id")).toMatch(/\S/);
  await response.text();
}

describe("2025 session open and close at debug", () => {
  it("logs the open with the client and protocol, and a DELETE as the reason it closed", async () => {
    const { server, lines } = loggedServer();
    const http = await serveHttp(server);
    handles.push(http);
    const { client, transport } = await connect2025(http.url);
    const id = transport.sessionId!;
    await client.close();
    const label = id.slice(0, 8);
    expect(lines()).toEqual([
      {
        message: `2025 session ${label} opened: logs-test 2.0.0, protocol 2025-11-25`,
        fields: { session: label, protocolVersion: "2025-11-25", client: "logs-test" },
      },
      {
        message: `2025 session ${label} closed: The client ended the session (HTTP DELETE).`,
        fields: { session: label, reason: "The client ended the session (HTTP DELETE)." },
      },
    ]);
    expect(JSON.stringify(lines())).not.toContain(id);
  });

  it("names the idle timeout, and the endpoint shutting down", async () => {
    const { server, lines } = loggedServer();
    const http = await serveHttp(server, { sessionIdleTimeoutMs: 50 });
    handles.push(http);
    // A bare initialize (no GET stream, which would keep the session alive), then another after the timeout: opening sweeps.
    await initializeByHand(http.url);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await initializeByHand(http.url);
    expect(lines().map((line) => line.message.replace(/^2025 session \S+ /, ""))).toEqual([
      "opened: raw 1.0.0, protocol 2025-11-25",
      "closed: The session expired after 0 s without activity.",
      "opened: raw 1.0.0, protocol 2025-11-25",
    ]);

    const second = loggedServer();
    const other = await serveHttp(second.server);
    await connect2025(other.url);
    await other.close({ graceMs: 0 });
    expect(second.lines().map((line) => line.message.replace(/^2025 session \S+ /, ""))).toEqual([
      "opened: logs-test 2.0.0, protocol 2025-11-25",
      "closed: The server is shutting down; initialize again.",
    ]);
  });

  it("at the default level (warn) says nothing about sessions", async () => {
    const debug = vi.fn();
    const server = new McpServer({ name: "quiet", version: "1.0.0" }, { logger: { debug, warn() {}, error() {} } });
    const http = await serveHttp(server);
    handles.push(http);
    const { client } = await connect2025(http.url);
    await client.close();
    expect(debug).not.toHaveBeenCalled();
  });
});
