// This SDK's client against the official TypeScript SDK 2.4.0 server as
// its users deploy it for both eras: in session mode (a
// WebStandardStreamableHTTPServerTransport per session, keyed by its
// sessionIdGenerator's ids), which speaks only the 2025 lifecycle, and
// behind createMcpHandler, which serves 2026-07-28 statelessly and falls
// back to stateless 2025 serving. Served on node:http at 127.0.0.1.
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  McpServer as OfficialMcpServer,
  WebStandardStreamableHTTPServerTransport,
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired as officialInputRequired,
  isInitializeRequest,
} from "@modelcontextprotocol/server";
import { Client } from "mcp-roundtrip/client";
import { bridge, waitFor } from "./peers.js";

const CITY_SCHEMA = { type: "object" as const, properties: { city: { type: "string" as const } }, required: ["city"] };
const DAY_ARGS = { type: "object" as const, properties: { day: { type: "string" as const } }, required: ["day"] };
const ROOTS = [{ uri: "file:///workspace/official", name: "Workspace" }];
const json = (status: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: status === 404 ? -32001 : -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

/** Serves a web-standard handler on 127.0.0.1, recording each request's method and headers. */
async function serve(handler: (request: Request) => Promise<Response>) {
  const seen: Array<{ method: string; headers: Headers }> = [];
  const listener = bridge(async (request) => {
    seen.push({ method: request.method, headers: request.headers });
    return handler(request);
  });
  const server: NodeServer = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe("against the official SDK 2.4.0 in session mode", () => {
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const rootsSeen: unknown[] = [];
  let peer: Awaited<ReturnType<typeof serve>>;

  function sessionServer(): OfficialMcpServer {
    const official = new OfficialMcpServer({ name: "official-sessions", version: "2.4.0" });
    official.registerTool("echo", { description: "Echoes the day", inputSchema: fromJsonSchema<{ day: string }>(DAY_ARGS) }, async ({ day }) => ({
      content: [{ type: "text", text: `echo: ${day}` }],
    }));
    official.registerTool(
      "forecast",
      { description: "Asks which city, then forecasts", inputSchema: fromJsonSchema<{ day: string }>(DAY_ARGS) },
      async ({ day }, ctx) => {
        // The 2025 push-style request, on the call's own response stream.
        const answer = await ctx.mcpReq.elicitInput({ message: `Which city for ${day}?`, requestedSchema: CITY_SCHEMA });
        const city = answer.action === "accept" ? (answer.content as { city?: string } | undefined)?.city : undefined;
        return { content: [{ type: "text", text: city ? `${day} in ${city}: sunny` : `no forecast (${answer.action})` }] };
      },
    );
    official.server.oninitialized = () => {
      // Asked outside any call: it travels on the session's GET stream.
      official.server.listRoots().then(
        (result) => void rootsSeen.push(result.roots),
        () => {},
      );
    };
    return official;
  }

  beforeAll(async () => {
    peer = await serve(async (request) => {
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const transport = transports.get(id);
        return transport ? transport.handleRequest(request) : json(404, "Session not found");
      }
      const body: unknown =
        request.method === "POST"
          ? await request
              .clone()
              .json()
              .catch(() => undefined)
          : undefined;
      if (!isInitializeRequest(body)) return json(400, "Bad Request: No valid session ID provided");
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => void transports.set(sessionId, transport),
        onsessionclosed: (sessionId) => void transports.delete(sessionId),
      });
      await sessionServer().connect(transport);
      return transport.handleRequest(request, { parsedBody: body });
    });
  });
  afterAll(async () => {
    for (const transport of transports.values()) await transport.close();
    await peer.close();
  });

  it("settles on 2025-11-25, lists, calls, elicits on the call's stream, answers roots/list on the GET stream, and ends with DELETE", async () => {
    const asked: Array<{ message: string; key: string | undefined }> = [];
    const rootsAsked: Array<string | undefined> = [];
    const client = await Client.connect(peer.url, {
      onElicit: (params, context) => {
        asked.push({ message: (params as { message: string }).message, key: context.key });
        return { action: "accept", content: { city: "Lisbon" } };
      },
      onListRoots: (_params, context) => {
        rootsAsked.push(context.key);
        return { roots: ROOTS };
      },
    });
    let sessionId: string | undefined;
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(client.serverInfo).toMatchObject({ name: "official-sessions", version: "2.4.0" });
      await waitFor(() => rootsSeen.length > 0, "the server to receive the roots it asked for");
      expect(rootsAsked).toEqual([undefined]);
      expect(rootsSeen).toEqual([ROOTS]);
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["echo", "forecast"]);
      expect(textOf(await client.callTool("echo", { day: "today" }))).toBe("echo: today");
      expect(textOf(await client.callTool("forecast", { day: "Tomorrow" }))).toBe("Tomorrow in Lisbon: sunny");
      expect(asked).toEqual([{ message: "Which city for Tomorrow?", key: undefined }]);
      [sessionId] = [...transports.keys()];
      const afterInit = peer.seen.slice(peer.seen.findIndex((r) => r.headers.get("mcp-session-id") !== null));
      for (const request of afterInit) {
        expect(request.headers.get("mcp-session-id")).toBe(sessionId);
        expect(request.headers.get("mcp-protocol-version")).toBe("2025-11-25");
      }
      expect(afterInit.some((request) => request.method === "GET")).toBe(true);
    } finally {
      await client.close();
    }
    expect(peer.seen.at(-1)?.method).toBe("DELETE");
    expect(transports.has(sessionId!)).toBe(false);
  });
});

describe("against the official SDK 2.4.0 createMcpHandler (stateless)", () => {
  let peer: Awaited<ReturnType<typeof serve>>;
  let closeHandler: () => Promise<void>;

  beforeAll(async () => {
    const handler = createMcpHandler(() => {
      const official = new OfficialMcpServer({ name: "official-stateless", version: "2.4.0" });
      official.registerTool("echo", { description: "Echoes the day", inputSchema: fromJsonSchema<{ day: string }>(DAY_ARGS) }, async ({ day }) => ({
        content: [{ type: "text", text: `echo: ${day}` }],
      }));
      official.registerTool(
        "forecast",
        { description: "Asks which city (multi round-trip), then forecasts", inputSchema: fromJsonSchema<{ day: string }>(DAY_ARGS) },
        async ({ day }, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, "city") as { city?: string } | undefined;
          if (!answer?.city) {
            return officialInputRequired({
              inputRequests: { city: officialInputRequired.elicit({ message: `Which city for ${day}?`, requestedSchema: CITY_SCHEMA }) },
            });
          }
          return { content: [{ type: "text", text: `${day} in ${answer.city}: sunny` }] };
        },
      );
      return official;
    });
    closeHandler = () => handler.close();
    peer = await serve((request) => handler.fetch(request));
  });
  afterAll(async () => {
    await closeHandler();
    await peer.close();
  });

  it("stays on 2026-07-28 and completes the elicitation as a multi round-trip request", async () => {
    const asked: Array<{ message: string; key: string | undefined }> = [];
    const client = await Client.connect(peer.url, {
      onElicit: (params, context) => {
        asked.push({ message: (params as { message: string }).message, key: context.key });
        return { action: "accept", content: { city: "Porto" } };
      },
    });
    try {
      expect(client.protocolVersion).toBe("2026-07-28");
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["echo", "forecast"]);
      expect(textOf(await client.callTool("echo", { day: "today" }))).toBe("echo: today");
      expect(textOf(await client.callTool("forecast", { day: "Friday" }))).toBe("Friday in Porto: sunny");
      expect(asked).toEqual([{ message: "Which city for Friday?", key: "city" }]);
    } finally {
      await client.close();
    }
  });

  it("also serves this client pinned to 2025-11-25, through its stateless 2025 leg, with the same result types", async () => {
    const client = await Client.connect(peer.url, { mode: "2025-11-25" });
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["echo", "forecast"]);
      const result = await client.callTool("echo", { day: "Saturday" });
      // The same CallToolResult either way: a 2025 result is stamped complete.
      expect(result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "echo: Saturday" }] });
    } finally {
      await client.close();
    }
  });
});
