// This SDK's McpServer against the published `@modelcontextprotocol/sdk`
// 1.32.2 client, the 2025-era SDK most deployed clients still run, started
// the way its users start it: over Streamable HTTP (serveHttp on 127.0.0.1)
// and over stdio (serveStdio in a spawned node running dist/). It only
// speaks `initialize`, so the forecast tool's declared elicitation must reach
// it as a real `elicitation/create` over its session.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import type { McpServer } from "mcp-roundtrip/server";
import { TOOL_NAMES, cityQuestion, forecastText, greetingText, weatherServer } from "./fixtures/weather-server.mjs";
import { ensureStdioServerBuilt, expectExited, recordingFetch, stdioServerParameters, textsOf } from "./helpers.js";

/** The revision this client asks for in `initialize`, and so the one our server must agree to. */
const ASKED_VERSION = "2025-11-25";

/** An sdk 1.x client whose elicitation handler answers `city` and records every message it was shown. */
function sdk1Client(name: string, city: string) {
  const client = new Client({ name, version: "1.32.2" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { city } };
  });
  return { client, asked };
}

/** Lists, greets and forecasts through `client`, asserting each answer. */
async function listGreetForecast(client: Client, asked: string[], expected: { clientName: string; city: string }) {
  const listed = await client.listTools();
  expect(listed.tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);

  const greeting = await client.callTool({ name: "greet", arguments: { name: "Ana" } });
  expect(textsOf(greeting)).toEqual([greetingText("Ana", ASKED_VERSION, expected.clientName)]);
  expect(asked, "a plain call asks nothing").toEqual([]);

  const forecast = await client.callTool({ name: "forecast", arguments: { day: "Friday" } });
  expect(asked).toEqual([cityQuestion("Friday")]);
  expect(textsOf(forecast)).toEqual([forecastText("Friday", expected.city)]);
}

/**
 * Their stdio transport, plus the one hook their Client calls with the
 * version `initialize` settled on (their HTTP transport implements it to
 * set its header); recording it is how a user would read the version here.
 */
class VersionRecordingStdioTransport extends StdioClientTransport {
  negotiatedVersion: string | undefined;
  setProtocolVersion(version: string): void {
    this.negotiatedVersion = version;
  }
}

it("asks for the revision this suite expects (a newer pin changes what our server must agree to)", () => {
  expect(LATEST_PROTOCOL_VERSION).toBe(ASKED_VERSION);
});

describe("sdk 1.32.2 client over Streamable HTTP against serveHttp", () => {
  let server: McpServer;
  let http: HttpServerHandle;

  beforeAll(async () => {
    server = weatherServer();
    http = await serveHttp(server, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => http.close());

  it("initializes a session, lists, calls, answers the elicitation over the session, and ends it with DELETE", async () => {
    const { client, asked } = sdk1Client("sdk1-http", "Lisbon");
    const wire = recordingFetch();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { fetch: wire.fetch });
    onTestFinished(() => client.close());
    await client.connect(transport);

    expect(transport.protocolVersion).toBe(ASKED_VERSION);
    expect(transport.sessionId).toMatch(/\S/);
    expect(client.getServerVersion()).toEqual({ name: "roundtrip-weather", version: "1.0.0" });
    expect(server.server.openSessions).toBe(1);
    await listGreetForecast(client, asked, { clientName: "sdk1-http", city: "Lisbon" });

    // One tools/call; the question went out over the session and the client POSTed its answer back.
    expect(wire.callsOf("forecast")).toHaveLength(1);
    expect(wire.answers()).toEqual([expect.objectContaining({ result: { action: "accept", content: { city: "Lisbon" } } })]);

    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    expect(server.server.openSessions).toBe(0);
  });

  it("keeps two sessions apart: each client's question goes to that client only", async () => {
    const first = sdk1Client("sdk1-first", "Porto");
    const second = sdk1Client("sdk1-second", "Faro");
    const firstTransport = new StreamableHTTPClientTransport(new URL(http.url));
    const secondTransport = new StreamableHTTPClientTransport(new URL(http.url));
    onTestFinished(async () => {
      await Promise.allSettled([first.client.close(), second.client.close()]);
    });
    await Promise.all([first.client.connect(firstTransport), second.client.connect(secondTransport)]);
    expect(firstTransport.sessionId).not.toBe(secondTransport.sessionId);

    const [a, b] = await Promise.all([
      first.client.callTool({ name: "forecast", arguments: { day: "Saturday" } }),
      second.client.callTool({ name: "forecast", arguments: { day: "Sunday" } }),
    ]);
    expect(textsOf(a)).toEqual([forecastText("Saturday", "Porto")]);
    expect(textsOf(b)).toEqual([forecastText("Sunday", "Faro")]);
    expect(first.asked).toEqual([cityQuestion("Saturday")]);
    expect(second.asked).toEqual([cityQuestion("Sunday")]);

    await Promise.all([firstTransport.terminateSession(), secondTransport.terminateSession()]);
    expect(server.server.openSessions).toBe(0);
  });
});

describe("sdk 1.32.2 client over stdio against serveStdio in a spawned node", () => {
  beforeAll(() => ensureStdioServerBuilt());

  it("initializes, lists, calls, answers the elicitation over the pipe, and the server exits on close", async () => {
    const { client, asked } = sdk1Client("sdk1-stdio", "Porto");
    const transport = new VersionRecordingStdioTransport(stdioServerParameters());
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    onTestFinished(() => client.close());
    await client.connect(transport);

    expect(transport.negotiatedVersion).toBe(ASKED_VERSION);
    expect(client.getServerVersion()).toEqual({ name: "roundtrip-weather", version: "1.0.0" });
    await listGreetForecast(client, asked, { clientName: "sdk1-stdio", city: "Porto" });

    const pid = transport.pid;
    await client.close();
    await expectExited(pid);
    expect(stderr).toBe("");
  });
});
