// This SDK's client against @modelcontextprotocol/sdk 1.32.2 servers, the
// 2025-era peers most deployments run: McpServer over Streamable HTTP with
// sessions (the sessions map their README shows, answering 404 for an
// unknown session as the 2025-11-25 transport requires), without sessions
// (a fresh server per request, 405 for GET and DELETE), and over stdio.
// All traffic stays on 127.0.0.1.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { Client, SessionExpired, type ClientOptions } from "mcp-roundtrip/client";
import { CITY_SCHEMA, createWeatherServer } from "./fixtures/sdk1-weather.mjs";
import { listen, repoRoot, waitFor, type Seen } from "./peers.js";

const ROOTS = [{ uri: "file:///workspace/sdk1", name: "Workspace" }];

/** Callbacks that answer like a user would, and remember what they were asked. */
function recordingCallbacks(city = "Lisbon") {
  const elicited: Array<{ message: string; requestedSchema: unknown; key: string | undefined }> = [];
  const rootsAsked: Array<{ key: string | undefined }> = [];
  const options: ClientOptions = {
    onElicit: (params, context) => {
      const form = params as { message: string; requestedSchema: unknown };
      elicited.push({ message: form.message, requestedSchema: form.requestedSchema, key: context.key });
      return { action: "accept", content: { city } };
    },
    onListRoots: (_params, context) => {
      rootsAsked.push({ key: context.key });
      return { roots: ROOTS };
    },
  };
  return { options, elicited, rootsAsked };
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
const afterInitialize = (seen: Seen[]) => seen.slice(seen.findIndex((request) => request.rpc === "initialize") + 1);

const NOT_FOUND = JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
const NO_SESSION = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null });

/** sdk 1.x with sessions: one transport per session, kept in a map by session id. */
async function sessionfulPeer(options: { losesSessionOn?: string } = {}) {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const answers: { roots?: unknown } = {};
  const peer = await listen(async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = req.headers["mcp-session-id"] as string | undefined;
    let transport = id === undefined ? undefined : transports.get(id);
    if (id !== undefined && transport === undefined) {
      res.writeHead(404, { "content-type": "application/json" }).end(NOT_FOUND);
      return;
    }
    const call = body as { method?: string; params?: { name?: string } } | undefined;
    if (transport !== undefined && call?.method === "tools/call" && call.params?.name === options.losesSessionOn) {
      // The server drops the session the moment this tool is called: as if it restarted.
      await transport.close();
      res.writeHead(404, { "content-type": "application/json" }).end(NOT_FOUND);
      return;
    }
    if (transport === undefined) {
      if (req.method !== "POST" || !isInitializeRequest(body)) {
        res.writeHead(400, { "content-type": "application/json" }).end(NO_SESSION);
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
      });
      created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
      await createWeatherServer(answers).connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  });
  return { ...peer, transports, answers };
}

describe("against sdk 1.32.2 McpServer over Streamable HTTP with sessions", () => {
  let peer: Awaited<ReturnType<typeof sessionfulPeer>>;
  beforeAll(async () => {
    peer = await sessionfulPeer({ losesSessionOn: "roots-seen" });
  });
  afterAll(() => peer.close());

  it("settles on 2025-11-25, then lists, calls, elicits on both streams, and answers roots/list sent outside any call", async () => {
    const { options, elicited, rootsAsked } = recordingCallbacks();
    const client = await Client.connect(peer.url, options);
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(client.era).toBe("legacy");
      expect(client.serverInfo).toMatchObject({ name: "sdk1-weather", version: "1.32.2" });
      // The server asks for roots as soon as it is initialized, before any call: that arrives on the GET stream.
      await waitFor(() => rootsAsked.length > 0, "the server's roots/list");
      expect(rootsAsked).toEqual([{ key: undefined }]);

      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["echo", "forecast", "forecast-aside", "roots-seen"]);
      expect(textOf(await client.callTool("echo", { text: "hi" }))).toBe("echo: hi");
      expect(textOf(await client.callTool("forecast", { day: "Tomorrow" }))).toBe("Tomorrow in Lisbon: sunny");
      expect(textOf(await client.callTool("forecast-aside", { day: "Friday" }))).toBe("Friday in Lisbon: sunny");
      expect(elicited).toEqual([
        { message: "Which city for Tomorrow?", requestedSchema: CITY_SCHEMA, key: undefined },
        { message: "Which city, aside, for Friday?", requestedSchema: CITY_SCHEMA, key: undefined },
      ]);
      expect(peer.answers.roots).toEqual(ROOTS);

      // Every message after initialize carries the agreed version and the session id; the GET stream was opened.
      const sessionId = [...peer.transports.keys()][0];
      expect(sessionId).toBeDefined();
      const traffic = afterInitialize(peer.seen);
      expect(traffic.length).toBeGreaterThan(5);
      for (const request of traffic) {
        expect(request.headers["mcp-protocol-version"], `${request.method} ${request.rpc}`).toBe("2025-11-25");
        expect(request.headers["mcp-session-id"], `${request.method} ${request.rpc}`).toBe(sessionId);
      }
      expect(traffic.filter((request) => request.method === "GET")).toHaveLength(1);
      expect(traffic.filter((request) => request.rpc === "(response)")).toHaveLength(3);
    } finally {
      await client.close();
    }
    // close() ended the session with DELETE, so the server let it go.
    expect(peer.seen.at(-1)).toMatchObject({ method: "DELETE" });
    expect(peer.transports.size).toBe(0);
  });

  it("starts a new session, once and transparently, when the server lost the old one (404)", async () => {
    const client = await Client.connect(peer.url, recordingCallbacks().options);
    try {
      expect(textOf(await client.callTool("echo", { text: "one" }))).toBe("echo: one");
      const [first] = [...peer.transports.values()];
      await first!.close(); // the session expires on the server
      expect(peer.transports.size).toBe(0);
      const initializes = peer.seen.filter((request) => request.rpc === "initialize").length;
      expect(textOf(await client.callTool("echo", { text: "two" }))).toBe("echo: two");
      expect(peer.seen.filter((request) => request.rpc === "initialize").length).toBe(initializes + 1);
      expect(peer.transports.size).toBe(1);
      expect([...peer.transports.keys()][0]).not.toBe(first!.sessionId);
    } finally {
      await client.close();
    }
  });

  it("says clearly when the new session is lost too, and disturbs neither its own later calls nor other clients", async () => {
    const bystander = await Client.connect(peer.url, recordingCallbacks("Porto").options);
    const client = await Client.connect(peer.url, recordingCallbacks().options);
    try {
      const error = await client.callTool("roots-seen").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionExpired);
      expect((error as Error).message).toMatch(/lost this client's session \(HTTP 404[\s\S]*lost that one at once too[\s\S]*Connect again/);
      expect(textOf(await client.callTool("echo", { text: "still here" }))).toBe("echo: still here");
      expect(textOf(await bystander.callTool("forecast", { day: "Sunday" }))).toBe("Sunday in Porto: sunny");
    } finally {
      await client.close();
      await bystander.close();
    }
  });
});

describe("against sdk 1.32.2 McpServer over Streamable HTTP without sessions", () => {
  let peer: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    // Their stateless example: a fresh server and transport per request, GET and DELETE refused with 405.
    peer = await listen(async (req, res, body) => {
      if (req.method !== "POST") {
        res.writeHead(405).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }));
        return;
      }
      const server = createWeatherServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    });
  });
  afterAll(() => peer.close());

  it("settles on 2025-11-25 and lists and calls, every request carrying the agreed version", async () => {
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (message: string) => void warnings.push(message);
    const client = await Client.connect(peer.url, recordingCallbacks().options);
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      expect((await client.listAllTools()).map((tool) => tool.name)).toContain("echo");
      expect(textOf(await client.callTool("echo", { text: "stateless" }))).toBe("echo: stateless");
      const traffic = afterInitialize(peer.seen);
      for (const request of traffic.filter((r) => r.method === "POST")) {
        expect(request.headers["mcp-protocol-version"]).toBe("2025-11-25");
        expect(request.headers["mcp-session-id"]).toBeUndefined();
      }
      // The GET stream was offered no more than once: 405 means "no stream here", not "try again".
      expect(traffic.filter((r) => r.method === "GET")).toHaveLength(1);
    } finally {
      await client.close();
      console.warn = original;
    }
    expect(peer.seen.filter((r) => r.method === "DELETE")).toHaveLength(0);
    expect(warnings).toEqual([]);
  });
});

describe("against sdk 1.32.2 McpServer over stdio", () => {
  it("settles on 2025-11-25, answers roots/list sent on connect, lists, calls and elicits", async () => {
    const { options, elicited, rootsAsked } = recordingCallbacks("Faro");
    const client = await Client.connect({ command: process.execPath, args: [join(repoRoot, "test/interop/fixtures/sdk1-stdio-server.mjs")] }, options);
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      await waitFor(() => rootsAsked.length > 0, "the server's roots/list");
      expect(rootsAsked).toEqual([{ key: undefined }]);
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["echo", "forecast", "forecast-aside", "roots-seen"]);
      expect(textOf(await client.callTool("echo", { text: "pipe" }))).toBe("echo: pipe");
      expect(textOf(await client.callTool("forecast", { day: "Monday" }))).toBe("Monday in Faro: sunny");
      expect(textOf(await client.callTool("forecast-aside", { day: "Tuesday" }))).toBe("Tuesday in Faro: sunny");
      expect(elicited.map((asked) => asked.message)).toEqual(["Which city for Monday?", "Which city, aside, for Tuesday?"]);
      expect(JSON.parse(textOf(await client.callTool("roots-seen")))).toEqual(ROOTS);
    } finally {
      await client.close();
    }
  });
});
