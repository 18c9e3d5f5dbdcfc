// legacyInputRequired: "shim" against the published `@modelcontextprotocol/sdk` 1.32.2 client, started
// the way its users start it: over Streamable HTTP (serveHttp on 127.0.0.1) and over stdio (serveStdio
// in a spawned node running dist/). The onboarding tool builds its two rounds by hand (the second
// carrying requestState); that client only speaks initialize, so with the shim both questions reach it
// as real elicitation/create requests over its session, and without it the call fails with the -32603
// that names the option.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { CONNECT_URL, NAME_QUESTION, connectedText, onboardingServer, teamQuestion, welcomeText } from "./fixtures/onboarding-server.mjs";
import { ensureStdioServerBuilt, expectExited, recordingFetch, textsOf } from "./helpers.js";

const ONBOARDING_STDIO_SCRIPT = fileURLToPath(new URL("./fixtures/serve-onboarding-stdio.mjs", import.meta.url));

/** An sdk 1.x client that answers the onboarding questions ("Ana", then "platform") and records what it was asked. */
function sdk1Client(name: string) {
  const client = new Client({ name, version: "1.32.2" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return request.params.message === NAME_QUESTION ? { action: "accept", content: { name: "Ana" } } : { action: "accept", content: { team: "platform" } };
  });
  return { client, asked };
}

const OPTION_NAMED =
  /returned an InputRequiredResult built by hand; a 2025-11-25 client cannot answer it.*set legacyInputRequired: "shim" to ask them over the session/;

describe("sdk 1.32.2 client over Streamable HTTP against serveHttp", () => {
  let shimmed: HttpServerHandle;
  let strict: HttpServerHandle;
  /** What the strict server logged (a -32603 is logged with its cause). */
  const logged: string[] = [];

  beforeAll(async () => {
    shimmed = await serveHttp(onboardingServer({ legacyInputRequired: "shim" }), { host: "127.0.0.1", port: 0 });
    const logger = { warn: (message: string) => void logged.push(message), error: (message: string) => void logged.push(message) };
    strict = await serveHttp(onboardingServer({ logger }), { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await Promise.all([shimmed.close(), strict.close()]);
  });

  it('with legacyInputRequired: "shim" it completes the hand-built tool: one tools/call, both questions over the session', async () => {
    const { client, asked } = sdk1Client("sdk1-shim-http");
    const wire = recordingFetch();
    onTestFinished(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(shimmed.url), { fetch: wire.fetch }));

    const result = await client.callTool({ name: "onboard", arguments: {} });
    expect(textsOf(result)).toEqual([welcomeText("Ana", "platform")]);
    expect(asked).toEqual([NAME_QUESTION, teamQuestion("Ana")]);
    expect(wire.callsOf("onboard")).toHaveLength(1);
    expect(wire.answers().map((answer) => answer.result)).toEqual([
      { action: "accept", content: { name: "Ana" } },
      { action: "accept", content: { team: "platform" } },
    ]);
    // The handler's requestState stayed on the server: nothing the client sent carries one.
    expect(JSON.stringify(wire.posted)).not.toContain("requestState");
  });

  it("a URL-mode elicitation built by hand reaches it with the elicitationId its 2025 schema requires", async () => {
    const client = new Client({ name: "sdk1-shim-url", version: "1.32.2" }, { capabilities: { elicitation: { form: {}, url: {} } } });
    const shown: Array<{ url?: string; elicitationId?: string }> = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      shown.push(request.params as { url?: string; elicitationId?: string });
      return { action: "accept" };
    });
    onTestFinished(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(shimmed.url)));
    expect(textsOf(await client.callTool({ name: "connect", arguments: {} }))).toEqual([connectedText("accept")]);
    expect(shown).toEqual([expect.objectContaining({ mode: "url", url: CONNECT_URL, elicitationId: expect.stringMatching(/\S/) })]);
  });

  it("without the option the call fails with -32603 naming it, and the client is asked nothing", async () => {
    const { client, asked } = sdk1Client("sdk1-strict-http");
    onTestFinished(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(strict.url)));
    await expect(client.callTool({ name: "onboard", arguments: {} })).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(OPTION_NAMED) });
    expect(asked).toEqual([]);
    expect(logged).toEqual([expect.stringMatching(OPTION_NAMED)]);
  });
});

describe("sdk 1.32.2 client over stdio against serveStdio in a spawned node", () => {
  beforeAll(() => ensureStdioServerBuilt());

  async function overStdio(args: string[]) {
    const { client, asked } = sdk1Client("sdk1-shim-stdio");
    const transport = new StdioClientTransport({ command: process.execPath, args: [ONBOARDING_STDIO_SCRIPT, ...args], stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    onTestFinished(() => client.close());
    await client.connect(transport);
    return { client, asked, transport, stderr: () => stderr };
  }

  it('with --shim (legacyInputRequired: "shim") it completes the hand-built tool over the pipe', async () => {
    const { client, asked, transport, stderr } = await overStdio(["--shim"]);
    const result = await client.callTool({ name: "onboard", arguments: {} });
    expect(textsOf(result)).toEqual([welcomeText("Ana", "platform")]);
    expect(asked).toEqual([NAME_QUESTION, teamQuestion("Ana")]);
    const pid = transport.pid;
    await client.close();
    await expectExited(pid);
    expect(stderr()).toBe("");
  });

  it("without it the call fails with -32603 naming the option", async () => {
    const { client, asked } = await overStdio([]);
    await expect(client.callTool({ name: "onboard", arguments: {} })).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(OPTION_NAMED) });
    expect(asked).toEqual([]);
  });
});
