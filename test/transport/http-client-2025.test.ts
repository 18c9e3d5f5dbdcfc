// The HTTP client against a scripted 2025-era Streamable HTTP server
// (2025-11-25 basic/transports): the session id and agreed version on every
// message, the GET stream with Last-Event-ID and retry, resumption of a
// response stream that broke before its answer, DELETE, and a lost session.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type JsonRpcNotification, Client, ConnectionLost, SessionExpired, HttpTransportError, StreamableHttpClientTransport } from "mcp-roundtrip/client";

interface Seen {
  method: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown> | undefined;
  at: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown> | undefined, seen: Seen[]) => void | Promise<void>;

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/**
 * A 2025 server: 400 (no JSON-RPC body) to the modern probe, a session id
 * with the InitializeResult, 202 for notifications and answers; `custom`
 * handles anything it wants first (return after writing to take over).
 */
async function legacyServer(custom: Handler = () => {}, options: { sessionId?: () => string } = {}) {
  const seen: Seen[] = [];
  let sessions = 0;
  const newSession = options.sessionId ?? (() => `session-${++sessions}`);
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
    seen.push({ method: req.method!, headers: req.headers, body, at: performance.now() });
    await custom(req, res, body, seen);
    if (res.headersSent || res.writableEnded) return;
    if (req.method === "GET" || req.method === "DELETE") return void res.writeHead(405).end();
    if (body?.method === "server/discover") return void res.writeHead(400, { "content-type": "text/plain" }).end("Bad Request: Server not initialized");
    if (body?.method === "initialize") {
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": newSession() });
      return void res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: body.id,
          result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "scripted", version: "1" } },
        }),
      );
    }
    if (body?.id === undefined || body.method === undefined) return void res.writeHead(202).end();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: body.method === "tools/call" ? { content: [{ type: "text", text: "done" }] } : {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  open.push(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

const sse = (res: ServerResponse, ...events: string[]) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const event of events) res.write(event);
};
const message = (value: unknown, id?: string) => `${id === undefined ? "" : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(value)}\n\n`;
const until = async (check: () => boolean, ms = 3_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("a 2025 session over HTTP", () => {
  it("falls back on a plain 400, then sends the session id and agreed version on every message, and DELETE on close", async () => {
    const peer = await legacyServer();
    const client = await Client.connect(peer.url);
    await client.callTool("t", {});
    await client.close();
    const methods = peer.seen.map((r) => `${r.method} ${String(r.body?.method ?? "")}`.trim());
    expect(methods).toEqual(["POST server/discover", "POST initialize", "GET", "POST notifications/initialized", "POST tools/call", "DELETE"]);
    for (const request of peer.seen.slice(2)) {
      expect(request.headers["mcp-session-id"]).toBe("session-1");
      expect(request.headers["mcp-protocol-version"]).toBe("2025-11-25");
    }
    expect(peer.seen[1]!.headers["mcp-protocol-version"]).toBeUndefined();
    expect(peer.seen[2]!.headers.accept).toBe("text/event-stream");
  });

  it("ignores a session id with characters outside visible ASCII, with a warning", async () => {
    const peer = await legacyServer(() => {}, { sessionId: () => "bad id" });
    const warnings: string[] = [];
    const client = await Client.connect(new StreamableHttpClientTransport(peer.url, { onWarning: (w) => void warnings.push(w) }));
    await client.close();
    expect(warnings).toEqual([expect.stringMatching(/Mcp-Session-Id with characters outside visible ASCII/)]);
    expect(peer.seen.slice(2).every((r) => r.headers["mcp-session-id"] === undefined)).toBe(true);
  });

  it("reads the GET stream: requests reach the callbacks, ping is answered, notifications reach onNotification; it reconnects with Last-Event-ID after retry and stops on 405", async () => {
    let gets = 0;
    let firstClosedAt = 0;
    const peer = await legacyServer((req, res) => {
      if (req.method !== "GET") return;
      if (++gets === 1) {
        sse(
          res,
          "id: g0\nretry: 150\ndata: \n\n",
          message({ jsonrpc: "2.0", id: "r1", method: "roots/list" }, "g1"),
          message({ jsonrpc: "2.0", id: "p1", method: "ping" }, "g2"),
          message({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }, "g3"),
        );
        setTimeout(() => {
          firstClosedAt = performance.now();
          res.end();
        }, 100);
      } else res.writeHead(405).end();
    });
    const notes: JsonRpcNotification[] = [];
    let asked = 0;
    const client = await Client.connect(peer.url, {
      onListRoots: () => (asked++, { roots: [{ uri: "file:///r" }] }),
      onNotification: (note) => void notes.push(note),
    });
    await until(() => gets === 2 && asked === 1 && notes.length === 1);
    // The answers go back as POSTs once checked (the answer checker loads on the first one): wait for both, not a fixed time.
    const answered = () => peer.seen.filter((r) => r.method === "POST" && r.body?.method === undefined).map((r) => r.body);
    await until(() => answered().length >= 2, 15_000);
    await client.close();
    expect(asked).toBe(1);
    expect(notes.map((note) => note.method)).toEqual(["notifications/tools/list_changed"]);
    const answers = answered();
    expect(answers).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: "r1", result: { roots: [{ uri: "file:///r" }] } },
        { jsonrpc: "2.0", id: "p1", result: {} },
      ]),
    );
    const getRequests = peer.seen.filter((r) => r.method === "GET");
    expect(getRequests).toHaveLength(2);
    expect(getRequests[1]!.headers["last-event-id"]).toBe("g3");
    expect(getRequests[1]!.at - firstClosedAt).toBeGreaterThanOrEqual(140);
  });

  it("warns once and stops listening when the server refuses the GET stream with an error other than 405", async () => {
    const peer = await legacyServer((req, res) => {
      if (req.method === "GET") res.writeHead(400, { "content-type": "text/plain" }).end("no");
    });
    const warnings: string[] = [];
    const client = await Client.connect(new StreamableHttpClientTransport(peer.url, { onWarning: (w) => void warnings.push(w) }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.close();
    expect(peer.seen.filter((r) => r.method === "GET")).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/refused the event stream \(GET\) with HTTP 400/)]);
  });

  it("resumes a call's response stream that closed before its answer, with GET and Last-Event-ID after the retry delay", async () => {
    let closedAt = 0;
    const peer = await legacyServer((req, res, body, seen) => {
      if (body?.method === "tools/call") {
        sse(res, "id: c1\nretry: 120\ndata: \n\n");
        setTimeout(() => {
          closedAt = performance.now();
          res.end();
        }, 20);
      } else if (req.method === "GET" && req.headers["last-event-id"] === "c1") {
        const call = seen.find((r) => r.body?.method === "tools/call")!.body!;
        sse(res, "id: c2\ndata: \n\n", message({ jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text: "resumed" }] } }, "c3"));
        res.end();
      } else if (req.method === "GET") res.writeHead(405).end();
    });
    const client = await Client.connect(peer.url);
    const result = await client.callTool("slow", {});
    await client.close();
    expect(result.content).toEqual([{ type: "text", text: "resumed" }]);
    const resume = peer.seen.find((r) => r.headers["last-event-id"] === "c1")!;
    expect(resume.at - closedAt).toBeGreaterThanOrEqual(110);
    expect(resume.headers["mcp-session-id"]).toBe("session-1");
  });

  it("gives up, clearly, when the server keeps closing the stream without the answer", async () => {
    const peer = await legacyServer((req, res, body) => {
      if (body?.method === "tools/call" || (req.method === "GET" && req.headers["last-event-id"] !== undefined)) {
        sse(res, `id: x${Math.random()}\nretry: 5\ndata: \n\n`);
        res.end();
      }
    });
    const client = await Client.connect(peer.url);
    const error = await client.callTool("never", {}).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ConnectionLost);
    expect(error).toMatchObject({ name: "ConnectionLost", retryable: true, method: "tools/call" });
    expect((error as Error).message).toMatch(/tools\/call: the response stream broke off or closed 6 times before its answer .*; giving up/);
  });

  it("renews a lost session once for calls in flight together, and says so clearly when the new one is lost too", async () => {
    let lose = 1;
    const peer = await legacyServer((req, res, body) => {
      const session = req.headers["mcp-session-id"];
      const current = `session-${peer ? peer.seen.filter((r) => r.body?.method === "initialize").length : 1}`;
      if (body?.method === "tools/call" && (session !== current || lose-- > 0 || (body.params as { name?: string }).name === "always-lost")) {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
      }
    });
    const client = await Client.connect(peer.url);
    lose = 2; // the next two calls both find the session gone
    const results = await Promise.all([client.callTool("a", {}), client.callTool("b", {})]);
    expect(results.map((r) => r.content)).toEqual([[{ type: "text", text: "done" }], [{ type: "text", text: "done" }]]);
    expect(peer.seen.filter((r) => r.body?.method === "initialize")).toHaveLength(2);

    const error = await client.callTool("always-lost", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExpired);
    expect((error as Error).message).toMatch(/lost that one at once too/);
    // The client keeps working in the session it now has.
    expect((await client.callTool("a", {})).content).toEqual([{ type: "text", text: "done" }]);
    await client.close();
  });
});

describe("a lost session answered with 400, as the older SDK's README wiring does", () => {
  it("is renewed like a 404, while another 400 stays an error", async () => {
    let lost = true;
    const peer = await legacyServer((req, res, body) => {
      if (body?.method !== "tools/call") return;
      if (lost && req.headers["mcp-session-id"] === "session-1") {
        lost = false;
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null }));
      } else if ((body.params as { name?: string }).name === "bad") {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32602, message: "Bad Request: arguments malformed" }, id: body.id }));
      }
    });
    const client = await Client.connect(peer.url);
    expect((await client.callTool("a", {})).content).toEqual([{ type: "text", text: "done" }]);
    expect(peer.seen.filter((r) => r.body?.method === "initialize")).toHaveLength(2);
    await expect(client.callTool("bad", {})).rejects.toMatchObject({ code: -32602 });
    expect(peer.seen.filter((r) => r.body?.method === "initialize")).toHaveLength(2);
    await client.close();
  });
});

describe("refusals of the caller", () => {
  it("surface a 403 with a JSON-RPC body (an Origin or Host check) as HttpTransportError, not as a reason to fall back", async () => {
    const peer = await legacyServer((_req, res) => {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Invalid Host header: 127.0.0.1" }, id: null }));
    });
    const error = await Client.connect(peer.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpTransportError);
    expect((error as HttpTransportError).status).toBe(403);
    expect((error as Error).message).toBe(
      "server/discover was refused with HTTP 403: the server refused this client: check the token, and the Origin and Host the server accepts (Invalid Host header: 127.0.0.1).",
    );
    expect(peer.seen.map((r) => r.body?.method)).toEqual(["server/discover"]);
  });
});
