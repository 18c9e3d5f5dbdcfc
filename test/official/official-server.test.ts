// The official SDK 2.4.0 McpServer, served through createMcpHandler, sealing
// its requestState with our codec: MRTR rounds complete with their client and
// ours, on a tool, a prompt and a resource, and the token on the wire is ours.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  McpServer as OfficialMcpServer,
  WebStandardStreamableHTTPServerTransport,
  acceptedContent,
  fromJsonSchema,
  inputRequired,
  type RequestStateCodec,
  type ServerContext,
  type ServerOptions,
} from "@modelcontextprotocol/server";
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client, isInputRequired } from "mcp-roundtrip/client";
import { createSealedRequestStateCodec, principalOfOfficialAuthInfo, RequestStateSecurity } from "mcp-roundtrip/ext/official";
import { bridge } from "../interop/peers.js";
import { authInfoOf, CITY_SCHEMA, MARKER, startOfficialServer, tokenBytes, type Fixture, type RoundState } from "./fixture.js";

const TEXT_ARGS = { type: "object" as const, properties: { text: { type: "string" as const } }, required: ["text"] };

// Compile-time: the codec is their RequestStateCodec<T>, and its verify drops into their ServerOptions.
const typed = createSealedRequestStateCodec<RoundState>(RequestStateSecurity.ephemeral(), { audience: "typed" });
const asTheirs: RequestStateCodec<RoundState> = typed;
const options: ServerOptions = { requestState: { verify: typed.verify } };
const mintWithTheirCtx = (ctx: ServerContext) => typed.mint({ text: "", marker: "" }, ctx);
void [asTheirs, options, mintWithTheirCtx];

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startOfficialServer();
});
afterAll(() => fixture.close());

function officialClient() {
  const client = new OfficialClient({ name: "official-client", version: "2.4.0" }, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  } as never);
  client.setRequestHandler("elicitation/create" as never, (async () => ({ action: "accept", content: { city: "Porto" } })) as never);
  return client;
}

describe("the official McpServer (createMcpHandler) with our codec", () => {
  it("completes an MRTR round with the official client, the handler reading its payload back", async () => {
    const client = officialClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(fixture.url("alice"))));
    try {
      const result = await client.callTool({ name: "forecast", arguments: { text: "Tomorrow" } });
      expect(result.content).toEqual([{ type: "text", text: "Tomorrow in Porto: sunny (sealed)" }]);
    } finally {
      await client.close();
    }
    expect(fixture.rejections).toEqual([]);
  });

  it("completes the same round unauthenticated (no principal bound)", async () => {
    const client = officialClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(fixture.url())));
    try {
      const result = await client.callTool({ name: "forecast", arguments: { text: "Today" } });
      expect(result.content).toEqual([{ type: "text", text: "Today in Porto: sunny (sealed)" }]);
    } finally {
      await client.close();
    }
  });

  it("completes rounds on a tool, a prompt and a resource with mcp-roundtrip's client", async () => {
    const client = await Client.connect(fixture.url("alice"), { onElicit: () => ({ action: "accept", content: { city: "Lisbon" } }) });
    try {
      expect(client.protocolVersion).toBe("2026-07-28");
      expect((await client.callTool("forecast", { text: "Friday" })).content).toEqual([{ type: "text", text: "Friday in Lisbon: sunny (sealed)" }]);
      const prompt = await client.getPrompt("brief", { text: "storms" });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Brief storms for Lisbon" });
      const resource = await client.readResource("weather://today");
      expect(resource.contents).toEqual([{ uri: "weather://today", text: "today in Lisbon" }]);
    } finally {
      await client.close();
    }
    expect(fixture.rejections).toEqual([]);
  });

  it("puts one of our v1 tokens on the wire: the payload cannot be read out of it", async () => {
    const client = await Client.connect(fixture.url("alice"), { onElicit: () => ({ action: "decline" }) });
    try {
      const first = await client.session.callTool("forecast", { text: "Monday" }, { allowInputRequired: true });
      expect(isInputRequired(first)).toBe(true);
      const token = (first as { requestState: string }).requestState;
      expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      // Neither the marker nor the arguments nor any JSON of the payload, in the text or in the decoded bytes.
      for (const text of [token, tokenBytes(token)]) {
        expect(text).not.toContain(MARKER);
        expect(text).not.toContain("Monday");
        expect(text).not.toContain('"text"');
      }
      // The same keys open it, given the same binding (their AuthInfo mapped as the codec maps it).
      const state = await fixture.security.verify(token, {
        method: "tools/call",
        target: "forecast",
        arguments: { text: "Monday" },
        principal: principalOfOfficialAuthInfo(authInfoOf("alice")),
        audience: "weather-official",
      });
      expect(JSON.parse(state)).toEqual({ text: "Monday", marker: MARKER });
    } finally {
      await client.close();
    }
  });
});

describe("the official server's 2025-era path (their legacy shim) with our codec", () => {
  it("completes a round the shim fulfils in a session, through a captured handleRequest", async () => {
    // Their sessionful transport: the shim turns the input_required return into an elicitation/create
    // over the session and re-enters the handler with the same ctx.http.req, which capture remembered.
    const { codec, serve } = sessionfulServer();
    const http = createServer(bridge(codec.capture((request, opts) => serve(request, opts))));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const client = new OfficialClient({ name: "official-client", version: "2.4.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { city: "Faro" } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      const result = await client.callTool({ name: "forecast", arguments: { text: "Sunday" } });
      expect(result.content).toEqual([{ type: "text", text: "Sunday in Faro" }]);
    } finally {
      await client.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    }
  });
});

/** One official McpServer on their sessionful web-standard transport, sealing with our codec. */
function sessionfulServer() {
  const codec = createSealedRequestStateCodec<{ text: string }>(RequestStateSecurity.ephemeral(), { audience: "weather-2025" });
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const serve = async (request: Request, opts?: { parsedBody?: unknown }) => {
    const id = request.headers.get("mcp-session-id");
    let transport = id === null ? undefined : transports.get(id);
    if (transport === undefined) {
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void transports.set(sessionId, transport!),
      });
      const server = new OfficialMcpServer({ name: "weather-2025", version: "1.0.0" }, { requestState: { verify: codec.verify } });
      server.registerTool("forecast", { inputSchema: fromJsonSchema<{ text: string }>(TEXT_ARGS) }, async ({ text }, ctx) => {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, "city") as { city?: string } | undefined;
        if (!answer?.city) {
          return inputRequired({
            inputRequests: { city: inputRequired.elicit({ message: "Which city?", requestedSchema: CITY_SCHEMA }) },
            requestState: await codec.mint({ text }, ctx),
          });
        }
        return { content: [{ type: "text", text: `${ctx.mcpReq.requestState<{ text: string }>()?.text} in ${answer.city}` }] };
      });
      await server.connect(transport);
    }
    return transport.handleRequest(request, opts);
  };
  return { codec, serve };
}
