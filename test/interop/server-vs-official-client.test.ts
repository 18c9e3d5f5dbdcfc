// This SDK's McpServer against the published official client 2.4.0, started
// the way its users start it, over Streamable HTTP (serveHttp on 127.0.0.1)
// and over stdio (serveStdio in a spawned node running dist/). With default
// options that client opens with `initialize` and speaks 2025-11-25, so the
// forecast tool's declared elicitation reaches it as a real
// `elicitation/create` over the session; with `versionNegotiation: "auto"` it
// discovers 2026-07-28 and the same need comes back as an InputRequiredResult
// that it fulfils and retries (MRTR). Same server, same handlers, both ways.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Sdk1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Sdk1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import type { McpServer } from "mcp-roundtrip/server";
import { TOOL_NAMES, cityQuestion, forecastText, greetingText, weatherServer } from "./fixtures/weather-server.mjs";
import { ensureStdioServerBuilt, expectExited, recordingFetch, stdioServerParameters, textsOf } from "./helpers.js";

type Negotiation = { versionNegotiation?: { mode: "auto" } };

/** The two ways the client is configured: the defaults, and probing for the newest revision. */
const MODES: Array<{ name: string; options: Negotiation; version: string; era: "legacy" | "modern" }> = [
  { name: "default options", options: {}, version: "2025-11-25", era: "legacy" },
  { name: 'versionNegotiation mode "auto"', options: { versionNegotiation: { mode: "auto" } }, version: "2026-07-28", era: "modern" },
];

/** An official client whose elicitation handler answers `city` and records every message it was shown. */
function officialClient(name: string, options: Negotiation, city: string) {
  const client = new OfficialClient({ name, version: "2.4.0" }, { capabilities: { elicitation: {} }, ...options });
  const asked: string[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { city } };
  });
  return { client, asked };
}

/** Lists, greets and forecasts through `client`, asserting each answer; `asked` is what its elicitation handler saw. */
async function listGreetForecast(client: OfficialClient, asked: string[], expected: { clientName: string; version: string; city: string }) {
  const listed = await client.listTools();
  expect(listed.tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);

  const greeting = await client.callTool({ name: "greet", arguments: { name: "Ana" } });
  expect(textsOf(greeting)).toEqual([greetingText("Ana", expected.version, expected.clientName)]);
  expect(asked, "a plain call asks nothing").toEqual([]);

  const forecast = await client.callTool({ name: "forecast", arguments: { day: "Tuesday" } });
  expect(asked).toEqual([cityQuestion("Tuesday")]);
  expect(textsOf(forecast)).toEqual([forecastText("Tuesday", expected.city)]);
}

describe("official client 2.4.0 over Streamable HTTP against serveHttp", () => {
  let server: McpServer;
  let http: HttpServerHandle;

  beforeAll(async () => {
    server = weatherServer();
    http = await serveHttp(server, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => http.close());

  it.each(MODES)("with $name: settles on $version, lists, calls, and asks the elicitation the way its era does", async ({ options, version, era }) => {
    const clientName = `official-http-${era}`;
    const city = era === "legacy" ? "Porto" : "Faro";
    const { client, asked } = officialClient(clientName, options, city);
    const wire = recordingFetch();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { fetch: wire.fetch });
    onTestFinished(() => client.close());
    await client.connect(transport);

    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect(client.getProtocolEra()).toBe(era);
    await listGreetForecast(client, asked, { clientName, version, city });

    const forecastCalls = wire.callsOf("forecast");
    if (era === "modern") {
      // MRTR: the first call came back input_required, and the client retried with the answer; no session, no back channel.
      expect(forecastCalls).toHaveLength(2);
      expect(forecastCalls[0]!.params).not.toHaveProperty("inputResponses");
      expect(forecastCalls[1]!.params?.inputResponses).toEqual({ city: { action: "accept", content: { city } } });
      expect(wire.answers()).toEqual([]);
      expect(transport.sessionId).toBeUndefined();
      expect(server.server.openSessions).toBe(0);
    } else {
      // 2025: one call; the server asked over the session and the client POSTed its answer back.
      expect(forecastCalls).toHaveLength(1);
      expect(wire.answers()).toEqual([expect.objectContaining({ result: { action: "accept", content: { city } } })]);
      expect(transport.sessionId).toMatch(/\S/);
      expect(server.server.openSessions).toBe(1);
      // Ending the session the way their users do (DELETE) frees it on the server.
      await transport.terminateSession();
      expect(server.server.openSessions).toBe(0);
    }
  });

  it("one McpServer answers a 2026-07-28 client and two 2025 clients at the same time, each in its own era", async () => {
    const modern = officialClient("official-modern", { versionNegotiation: { mode: "auto" } }, "Lisbon");
    const legacy = officialClient("official-legacy", {}, "Porto");
    const sdk1 = new Sdk1Client({ name: "sdk1-legacy", version: "1.32.2" }, { capabilities: { elicitation: {} } });
    const sdk1Asked: string[] = [];
    sdk1.setRequestHandler(ElicitRequestSchema, async (request) => {
      sdk1Asked.push(request.params.message);
      return { action: "accept", content: { city: "Faro" } };
    });
    const sdk1Transport = new Sdk1HttpTransport(new URL(http.url));
    const legacyTransport = new StreamableHTTPClientTransport(new URL(http.url));
    onTestFinished(async () => {
      await Promise.allSettled([modern.client.close(), legacy.client.close(), sdk1.close()]);
    });
    await Promise.all([
      modern.client.connect(new StreamableHTTPClientTransport(new URL(http.url))),
      legacy.client.connect(legacyTransport),
      sdk1.connect(sdk1Transport),
    ]);
    expect(modern.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(legacy.client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(sdk1Transport.protocolVersion).toBe("2025-11-25");
    expect(server.server.openSessions).toBe(2);

    // All three forecasts are in flight at once, each waiting on its own question.
    const [modernForecast, legacyForecast, sdk1Forecast] = await Promise.all([
      modern.client.callTool({ name: "forecast", arguments: { day: "Monday" } }),
      legacy.client.callTool({ name: "forecast", arguments: { day: "Tuesday" } }),
      sdk1.callTool({ name: "forecast", arguments: { day: "Wednesday" } }),
    ]);
    expect(textsOf(modernForecast)).toEqual([forecastText("Monday", "Lisbon")]);
    expect(textsOf(legacyForecast)).toEqual([forecastText("Tuesday", "Porto")]);
    expect(textsOf(sdk1Forecast)).toEqual([forecastText("Wednesday", "Faro")]);
    expect(modern.asked).toEqual([cityQuestion("Monday")]);
    expect(legacy.asked).toEqual([cityQuestion("Tuesday")]);
    expect(sdk1Asked).toEqual([cityQuestion("Wednesday")]);

    const greetings = await Promise.all([
      modern.client.callTool({ name: "greet", arguments: { name: "Rui" } }),
      legacy.client.callTool({ name: "greet", arguments: { name: "Rui" } }),
      sdk1.callTool({ name: "greet", arguments: { name: "Rui" } }),
    ]);
    expect(greetings.map(textsOf)).toEqual([
      [greetingText("Rui", "2026-07-28", "official-modern")],
      [greetingText("Rui", "2025-11-25", "official-legacy")],
      [greetingText("Rui", "2025-11-25", "sdk1-legacy")],
    ]);

    await Promise.all([legacyTransport.terminateSession(), sdk1Transport.terminateSession()]);
    expect(server.server.openSessions).toBe(0);
  });
});

describe("official client 2.4.0 over stdio against serveStdio in a spawned node", () => {
  beforeAll(() => ensureStdioServerBuilt());

  it.each(MODES)("with $name: settles on $version, lists, calls, asks the elicitation, and the server exits on close", async ({ options, version, era }) => {
    const clientName = `official-stdio-${era}`;
    const city = era === "legacy" ? "Lisbon" : "Porto";
    const { client, asked } = officialClient(clientName, options, city);
    const transport = new StdioClientTransport(stdioServerParameters());
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    onTestFinished(() => client.close());
    await client.connect(transport);

    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect(client.getProtocolEra()).toBe(era);
    await listGreetForecast(client, asked, { clientName, version, city });

    const pid = transport.pid;
    await client.close();
    await expectExited(pid);
    expect(stderr).toBe("");
  });
});
