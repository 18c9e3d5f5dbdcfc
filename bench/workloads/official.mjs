// The official SDK side (`@modelcontextprotocol/server` + `@modelcontextprotocol/client`
// 2.4.0), each workload on the fastest correct route that SDK offers:
// - 2026-07-28 in process: the web-standard handler from `createMcpHandler`,
//   driven by `StreamableHTTPClientTransport` through a fetch shim (their
//   `InMemoryTransport` cannot carry the 2026 era: a pinned client gets no
//   `server/discover` answer over it);
// - 2025-11-25 in memory: `InMemoryTransport.createLinkedPair()`, where an
//   `input_required` return is fulfilled by their legacy shim as a
//   server-to-client `elicitation/create`;
// - Streamable HTTP: the same handler behind `node:http`, the parsed body
//   handed over as `parsedBody` (their documented shortcut for a framework
//   that already parsed JSON), the client on the same keep-alive node:http
//   fetch as ours (their transport's `fetch` option; see ../lib/keepalive-fetch.mjs);
// - the 2025 path: `InMemoryTransport` in process, and over HTTP one
//   `WebStandardStreamableHTTPServerTransport` with `sessionIdGenerator` per
//   session behind the same bridge; a tool asks mid-call with `elicitInput`.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import {
  McpServer,
  InMemoryTransport,
  WebStandardStreamableHTTPServerTransport,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  isInitializeRequest,
  specTypeSchemas,
} from "@modelcontextprotocol/server";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import * as z from "zod/v4";
import { clientFetch } from "../lib/keepalive-fetch.mjs";
import { closeServer, listen } from "../lib/listen.mjs";
import { startServerProcess } from "../lib/server-process.mjs";
import { CONFIRM_ANSWER, CONFIRM_SCHEMA, ECHO_TEXT, confirmedText, stateOf300Bytes, textOf, toolsCallRequest, toolsCallResult } from "./fixtures.mjs";

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } };
const SECRET = "bench-secret-bench-secret-bench-secret!";

/** Their McpServer with the two bench tools, sealing state with their HMAC codec. */
function officialServer() {
  const codec = createRequestStateCodec({ key: SECRET });
  const server = new McpServer({ name: "bench", version: "1.0.0" }, { requestState: { verify: codec.verify } });
  const input = { inputSchema: z.object({ text: z.string() }) };
  server.registerTool("echo", input, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerTool("confirm", input, async ({ text }, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm");
    if (answer?.confirm !== true) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({ message: `Confirm ${text}?`, requestedSchema: CONFIRM_SCHEMA }),
        },
        requestState: await codec.mint({ text }),
      });
    }
    const state = ctx.mcpReq.requestState();
    return { content: [{ type: "text", text: confirmedText(state.text) }] };
  });
  return server;
}

/**
 * Their server plus `ask`, the 2025 way to ask mid-call: `ctx.mcpReq.elicitInput`
 * sends `elicitation/create` over the session and awaits the answer.
 */
function officialLegacyServer() {
  const server = officialServer();
  server.registerTool("ask", { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ mode: "form", message: `Confirm ${text}?`, requestedSchema: CONFIRM_SCHEMA });
    const confirmed = answer.action === "accept" && answer.content?.confirm === true;
    return { content: [{ type: "text", text: confirmed ? confirmedText(text) : "declined" }] };
  });
  return server;
}

function officialClient(options = {}) {
  const client = new Client({ name: "bench-client", version: "1.0.0" }, { capabilities: { elicitation: {} }, ...options });
  client.setRequestHandler("elicitation/create", async () => CONFIRM_ANSWER);
  return client;
}

function toolCall(client, mrtr) {
  const params = { name: mrtr ? "confirm" : "echo", arguments: { text: ECHO_TEXT } };
  return {
    call: () => client.callTool(params),
    check: (result) => expectText(result, mrtr ? confirmedText(ECHO_TEXT) : ECHO_TEXT),
  };
}

function expectText(result, expected) {
  const text = textOf(result);
  if (text !== expected) throw new Error(`expected "${expected}", got "${text}"`);
}

/** 2026-07-28 in process: their HTTP handler behind a fetch shim. */
export async function inProcess2026({ mrtr }) {
  const handler = createMcpHandler(() => officialServer(), { legacy: "reject" });
  const shim = (url, init) => handler.fetch(new Request(url, init));
  const client = officialClient(MODERN);
  await client.connect(new StreamableHTTPClientTransport(new URL("http://in-process/mcp"), { fetch: shim }));
  return {
    ...toolCall(client, mrtr),
    async close() {
      await client.close();
      await handler.close();
    },
  };
}

/** 2025-11-25 over their linked in-memory transports. */
export async function inMemory2025({ mrtr }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = officialServer();
  await server.connect(serverSide);
  const client = officialClient();
  await client.connect(clientSide);
  return {
    ...toolCall(client, mrtr),
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The 2025 calls: `echo`, or `ask` and its one `elicitInput` over the session. */
function legacyToolCall(client, elicitation) {
  const params = { name: elicitation ? "ask" : "echo", arguments: { text: ECHO_TEXT } };
  return {
    call: () => client.callTool(params),
    check: (result) => {
      const version = client.getNegotiatedProtocolVersion();
      if (version !== "2025-11-25") throw new Error(`expected a 2025-11-25 session, got ${version}`);
      expectText(result, elicitation ? confirmedText(ECHO_TEXT) : ECHO_TEXT);
    },
  };
}

/** 2025-11-25 over their linked in-memory transports, asking with `elicitInput`. */
export async function legacyInMemory({ elicitation }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = officialLegacyServer();
  await server.connect(serverSide);
  const client = officialClient();
  await client.connect(clientSide);
  return {
    ...legacyToolCall(client, elicitation),
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/**
 * 2025-11-25 over Streamable HTTP with sessions, wired as their docs wire a
 * stateful server: an `initialize` without a session id gets a new
 * `WebStandardStreamableHTTPServerTransport` (with `sessionIdGenerator`) and
 * its own McpServer; later requests are routed by `Mcp-Session-Id`. Answers
 * are SSE by default (`jsonResponse: false`, what their docs' wiring does),
 * or JSON with `enableJsonResponse` (a documented option; ~25% less CPU per
 * call here), in which mode `elicitInput` reaches the client on the session's
 * GET stream.
 */
export async function legacyHttpServer({ jsonResponse = true } = {}) {
  const sessions = new Map();
  const route = {
    async fetch(request, options) {
      const sessionId = request.headers.get("mcp-session-id");
      if (sessionId) {
        const session = sessions.get(sessionId);
        if (!session) return Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });
        return session.transport.handleRequest(request, options);
      }
      if (request.method !== "POST" || !isInitializeRequest(options.parsedBody)) {
        return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: no valid session id" }, id: null }, { status: 400 });
      }
      const server = officialLegacyServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: jsonResponse,
        onsessioninitialized: (id) => sessions.set(id, { transport, server }),
        onsessionclosed: (id) => sessions.delete(id),
      });
      await server.connect(transport);
      return transport.handleRequest(request, options);
    },
  };
  const httpServer = createServer(nodeAdapter(route));
  const url = await listen(httpServer);
  return {
    url,
    async close() {
      for (const { server } of sessions.values()) await server.close();
      sessions.clear();
      await closeServer(httpServer);
    },
  };
}

/** The 2025 calls against `legacyHttpServer` in a process of its own, their client with its default handshake. */
export async function legacyHttp({ elicitation, jsonResponse = true, client: fetchKind = "keepalive" }) {
  const { client, close, serverCpu } = await overHttp("legacyHttpServer", { jsonResponse }, fetchKind, officialClient());
  return { ...legacyToolCall(client, elicitation), close, serverCpu };
}

/** Their 2026-07-28 handler behind `node:http`, as the server process of the HTTP workloads runs it. */
export async function httpServer({ legacy = "reject" } = {}) {
  const handler = createMcpHandler(() => officialServer(), { legacy });
  const server = createServer(nodeAdapter(handler));
  const url = await listen(server);
  return {
    url,
    async close() {
      await handler.close();
      await closeServer(server);
    },
  };
}

/** `factory` of this module in a server process of its own, `client` connected to it on the `fetchKind` fetch. */
async function overHttp(factory, options, fetchKind, client) {
  const remote = await startServerProcess(import.meta.url, factory, options);
  const fetcher = clientFetch(fetchKind);
  const closeAll = async () => {
    await client.close();
    fetcher.close();
    await remote.close();
  };
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(remote.url), { fetch: fetcher.fetch }));
  } catch (error) {
    await closeAll();
    throw error;
  }
  return { client, close: closeAll, serverCpu: remote.cpuMicros };
}

/** Their HMAC request-state codec: mint + verify of a 300-byte state. */
export async function sealVerify() {
  const codec = createRequestStateCodec({ key: SECRET });
  const state = stateOf300Bytes();
  return {
    call: async () => codec.verify(await codec.mint(state), {}),
    check: (result) => {
      if (JSON.stringify(result) !== JSON.stringify(state)) throw new Error("their codec did not round-trip the state");
    },
    async close() {},
  };
}

/** Their zod path: a `tools/call` request, then its result. */
export async function validate() {
  const request = specTypeSchemas.CallToolRequest["~standard"];
  const result = specTypeSchemas.CallToolResult["~standard"];
  const { jsonrpc, id, ...message } = toolsCallRequest();
  const answer = toolsCallResult();
  return {
    callSync: () => request.validate(message).issues === undefined && result.validate(answer).issues === undefined,
    check: (ok) => {
      if (ok !== true) throw new Error("their zod schemas rejected a valid tools/call exchange");
      if (result.validate({ content: [{ type: "text" }] }).issues === undefined) {
        throw new Error("their zod schemas accepted a text block without text");
      }
    },
    async close() {},
  };
}

/**
 * The minimal `node:http` → web `Request` bridge their README delegates to
 * `@modelcontextprotocol/node` (not a dependency here): read the body once,
 * parse it, hand both over, and copy the `Response` back.
 */
function nodeAdapter(handler) {
  return async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const item of value) headers.append(name, item);
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? body : undefined,
      });
      const options = {};
      if (hasBody && body.length > 0) {
        try {
          options.parsedBody = JSON.parse(body.toString("utf8"));
        } catch {
          // Leave the bytes to the handler, which answers the parse error itself.
        }
      }
      const response = await handler.fetch(request, options);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return res.end();
      if ((response.headers.get("content-type") ?? "").startsWith("application/json")) {
        return res.end(Buffer.from(await response.arrayBuffer()));
      }
      for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error?.message ?? error));
    }
  };
}

export { closeServer, listen } from "../lib/listen.mjs";
