// legacyInputRequired: "shim": a handler that builds its InputRequiredResult by hand, answered by a
// 2025 client over its session's back channel, with the handler's requestState sealed and verified on
// the server exactly as on an MRTR retry; and what happens without the option, without a session,
// without the capability, when the client cancels, stalls or the rounds run out.
import { describe, expect, it, vi } from "vitest";
import { Client, McpError } from "mcp-roundtrip/client";
import { McpServer, RequestStateSecurity, elicitUrl, inputRequired, type MintInput, type RequestBinding } from "mcp-roundtrip/server";
import type { ElicitResult } from "mcp-roundtrip/types";
import { NAME_QUESTION, onboardingServer, teamQuestion, welcomeText } from "../interop/fixtures/onboarding-server.mjs";
import { pair, recordingLogger } from "./helpers.js";
import { rawSession } from "./raw-legacy-session.js";

const SECRET = "0123456789abcdef0123456789abcdef-shim-secret";
/** A key-ring security whose rejections land in `rejections` instead of the console. */
const security = (rejections: string[] = []) => new RequestStateSecurity({ keys: [SECRET] }, { logger: { warn: (message) => void rejections.push(message) } });
const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: { elicitation: {}, roots: {}, sampling: {} }, clientInfo: { name: "raw", version: "1" } };
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

type Seen = { requestState: string | undefined; inputResponses: string[] };

/** Answers the onboarding questions as a person would: "Ana", then "platform". */
const answerOnboarding = (message: string): { action: "accept"; content: Record<string, string> } =>
  message === NAME_QUESTION ? { action: "accept", content: { name: "Ana" } } : { action: "accept", content: { team: "platform" } };

/** A sealer that seals with a real key and records every mint and verify. */
function recordingSealer() {
  const sealing = security();
  const minted: Array<{ input: MintInput; token: string }> = [];
  const verified: Array<{ token: string; binding: RequestBinding }> = [];
  return {
    minted,
    verified,
    async mint(input: MintInput) {
      const token = await sealing.mint(input);
      minted.push({ input: { ...input }, token });
      return token;
    },
    verify(token: string, binding: RequestBinding) {
      verified.push({ token, binding });
      return sealing.verify(token, binding);
    },
  };
}

describe('legacyInputRequired: "shim" with our Client', () => {
  it("a 2025 client completes a two-round hand-built tool, and the handler sees what a 2026 client's retries give it", async () => {
    const seen: Record<string, Seen[]> = { "2025": [], "2026": [] };
    let generation = "2026";
    const server = onboardingServer({ legacyInputRequired: "shim", logger: recordingLogger() }, (call) => seen[generation]!.push(call));
    const asked: string[] = [];
    const onElicit = async (params: { message: string }) => (asked.push(params.message), answerOnboarding(params.message));

    const modern = await Client.connect(server, { onElicit });
    expect(await modern.callTool("onboard", {})).toMatchObject(text(welcomeText("Ana", "platform")));
    await modern.close();

    generation = "2025";
    const legacy = await Client.connect(server, { onElicit, mode: "2025-11-25" });
    expect(legacy.protocolVersion).toBe("2025-11-25");
    expect(await legacy.callTool("onboard", {})).toMatchObject(text(welcomeText("Ana", "platform")));
    await legacy.close();

    expect(asked).toEqual([NAME_QUESTION, teamQuestion("Ana"), NAME_QUESTION, teamQuestion("Ana")]);
    const expected: Seen[] = [
      { requestState: undefined, inputResponses: [] },
      { requestState: undefined, inputResponses: ["name"] },
      { requestState: JSON.stringify({ name: "Ana" }), inputResponses: ["team"] },
    ];
    expect(seen["2026"]).toEqual(expected);
    expect(seen["2025"]).toEqual(expected);
  });

  it("at logLevel debug, says each round it asks over the session, with its keys", async () => {
    const lines: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const logger = { ...recordingLogger(), debug: (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields }) };
    const server = onboardingServer({ legacyInputRequired: "shim", logger, logLevel: "debug" });
    const legacy = await Client.connect(server, { onElicit: async (params: { message: string }) => answerOnboarding(params.message), mode: "2025-11-25" });
    expect(await legacy.callTool("onboard", {})).toMatchObject(text(welcomeText("Ana", "platform")));
    await legacy.close();
    const shimLines = lines.filter((line) => line.fields?.decision === "shim");
    expect(shimLines.map((line) => line.fields?.inputKeys)).toEqual([["name"], ["team"]]);
    expect(shimLines[0]!.message).toMatch(/round 1 built by hand, asking "name" over the 2025 session \(legacyInputRequired: "shim"\)/);
  });

  it("without the option the same call is -32603 naming it, and nothing is asked", async () => {
    const server = onboardingServer({ logger: recordingLogger() });
    const onElicit = vi.fn(async (params: { message: string }) => answerOnboarding(params.message));
    const legacy = await Client.connect(server, { onElicit, mode: "2025-11-25" });
    const failure = await legacy.callTool("onboard", {}).catch((error: unknown) => error);
    await legacy.close();
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(-32603);
    expect((failure as McpError).message).toContain('tool "onboard" returned an InputRequiredResult built by hand; a 2025-11-25 client cannot answer it');
    expect((failure as McpError).message).toContain(
      'Declare the questions with needs (elicit, elicitUrl, sample, listRoots), or set legacyInputRequired: "shim" to ask them over the session',
    );
    expect(onElicit).not.toHaveBeenCalled();
  });

  it("a prompt and a resource template that ask by hand take the same path", async () => {
    const server = new McpServer({ name: "shim-prompts", version: "1.0.0" }, { legacyInputRequired: "shim", logger: recordingLogger() });
    const question = (message: string) => ({
      method: "elicitation/create" as const,
      params: { message, requestedSchema: { type: "object" as const, properties: { tone: { type: "string" as const } }, required: ["tone"] } },
    });
    server.prompt("briefing", {}, (_args, ctx) => {
      const tone = ctx.inputResponses?.tone;
      if (tone === undefined) return inputRequired({ inputRequests: { tone: question("Which tone?") }, requestState: "asked-tone" });
      return [{ role: "user", content: { type: "text", text: `Brief in a ${String((tone as ElicitResult).content?.tone)} tone (${ctx.requestState})` } }];
    });
    server.resource("notes://{topic}", { name: "notes" }, (_uri, { topic }, ctx) => {
      const tone = ctx.inputResponses?.tone;
      if (tone === undefined) return inputRequired({ inputRequests: { tone: question(`Which tone for ${String(topic)}?`) } });
      return `${String(topic)} notes, ${String((tone as ElicitResult).content?.tone)}`;
    });
    const asked: string[] = [];
    const legacy = await Client.connect(server, {
      mode: "2025-11-25",
      onElicit: async (params) => (asked.push(params.message), { action: "accept", content: { tone: "dry" } }),
    });
    expect((await legacy.getPrompt("briefing")).messages).toEqual([{ role: "user", content: { type: "text", text: "Brief in a dry tone (asked-tone)" } }]);
    expect((await legacy.readResource("notes://ops")).contents).toEqual([{ uri: "notes://ops", text: "ops notes, dry" }]);
    await legacy.close();
    expect(asked).toEqual(["Which tone?", "Which tone for ops?"]);
  });

  it("roots and sampling requests built by hand are asked too, and a round with only requestState is retried at once", async () => {
    const server = new McpServer({ name: "shim-roots", version: "1.0.0" }, { legacyInputRequired: "shim", logger: recordingLogger() });
    server.tool("summarise-roots", { inputSchema: { type: "object" } }, (_args, ctx) => {
      if (ctx.requestState === undefined) return inputRequired({ requestState: "warming-up" });
      const responses = ctx.inputResponses;
      if (responses === undefined) {
        return inputRequired({
          inputRequests: {
            roots: { method: "roots/list", params: {} },
            summary: { method: "sampling/createMessage", params: { maxTokens: 20, messages: [{ role: "user", content: { type: "text", text: "Summarise" } }] } },
          },
          requestState: ctx.requestState,
        });
      }
      const roots = (responses.roots as { roots: Array<{ uri: string }> }).roots.map((root) => root.uri);
      const summary = (responses.summary as { content: { text: string } }).content.text;
      return text(`${ctx.requestState}: ${roots.join(",")} ${summary}`);
    });
    const legacy = await Client.connect(server, {
      mode: "2025-11-25",
      onListRoots: async () => ({ roots: [{ uri: "file:///work" }] }),
      onSample: async () => ({ role: "assistant", model: "m", content: { type: "text", text: "all good" } }),
    });
    expect(await legacy.callTool("summarise-roots", {})).toMatchObject(text("warming-up: file:///work all good"));
    await legacy.close();
  });
});

describe("questions go to a 2025 client in 2025 shape, declared or built by hand", () => {
  it("a URL-mode elicitation gets the elicitationId 2025-11-25 requires (2026-07-28 dropped it), each ask its own", async () => {
    const server = onboardingServer({ legacyInputRequired: "shim", logger: recordingLogger() });
    server.tool(
      "connect-declared",
      {
        inputSchema: { type: "object" },
        needs: (need) => need.add("github", () => elicitUrl({ message: "Connect GitHub", url: "https://accounts.example.com/connect" })),
      },
      (_args, { github }) => text(`declared: ${github.action}`),
    );
    const shown: Array<Record<string, unknown>> = [];
    const legacy = await Client.connect(server, {
      mode: "2025-11-25",
      capabilities: { elicitation: { form: {}, url: {} } },
      onElicit: async (params) => (shown.push({ ...params }), { action: "accept" }),
    });
    expect(await legacy.callTool("connect", {})).toMatchObject(text("GitHub connection: accept."));
    expect(await legacy.callTool("connect-declared", {})).toMatchObject(text("declared: accept"));
    await legacy.close();
    expect(shown).toEqual([
      expect.objectContaining({ mode: "url", elicitationId: expect.any(String) }),
      expect.objectContaining({ mode: "url", elicitationId: expect.any(String) }),
    ]);
    expect(shown[0]!.elicitationId).not.toBe(shown[1]!.elicitationId);
  });
});

describe("the shim keeps requestState on the server, sealed and verified as on an MRTR retry", () => {
  it("seals each round's state bound to the call, verifies it on the retry, and never sends it to the client", async () => {
    const sealer = recordingSealer();
    const server = onboardingServer({ legacyInputRequired: "shim", requestStateSecurity: sealer, logger: recordingLogger() });
    const raw = rawSession(server, (request) => answerOnboarding(String(request.params.message)));
    await raw.initialize();
    const response = await raw.request("tools/call", { name: "onboard", arguments: { team: "any" } });
    expect(response).toMatchObject({ result: text(welcomeText("Ana", "platform")) });

    expect(sealer.minted).toHaveLength(1);
    expect(sealer.minted[0]!.input).toMatchObject({ method: "tools/call", target: "onboard", arguments: { team: "any" }, state: JSON.stringify({ name: "Ana" }) });
    expect(sealer.verified.map((entry) => entry.token)).toEqual([sealer.minted[0]!.token]);
    expect(sealer.verified[0]!.binding).toMatchObject({ method: "tools/call", target: "onboard", arguments: { team: "any" } });
    const wire = JSON.stringify(raw.outbound);
    expect(wire).not.toContain(sealer.minted[0]!.token);
    expect(wire).not.toContain(JSON.stringify(JSON.stringify({ name: "Ana" })).slice(1, -1)); // nor the plaintext state
  });

  it("a 2025 client cannot smuggle a state in: requestState and inputResponses it sends are dropped", async () => {
    const seen: Seen[] = [];
    const server = onboardingServer({ legacyInputRequired: "shim", logger: recordingLogger() }, (call) => seen.push(call));
    // A genuine token, minted for this server's own tool over 2026: the most convincing thing to smuggle.
    const first = await pair(server, { elicitation: {} }).result("tools/call", {
      name: "onboard",
      arguments: {},
      inputResponses: { name: { action: "accept", content: { name: "Mallory" } } },
    });
    expect(first.requestState).toEqual(expect.any(String));
    seen.length = 0;

    const raw = rawSession(server, (request) => answerOnboarding(String(request.params.message)));
    await raw.initialize();
    const response = await raw.request("tools/call", {
      name: "onboard",
      arguments: {},
      requestState: first.requestState,
      inputResponses: { team: { action: "accept", content: { team: "billing" } } },
    });
    expect(response).toMatchObject({ result: text(welcomeText("Ana", "platform")) });
    expect(seen[0]).toEqual({ requestState: undefined, inputResponses: [] });
    expect(raw.asked().map((request) => request.params.message)).toEqual([NAME_QUESTION, teamQuestion("Ana")]);
  });

  it("a state that is not this call's fails closed: -32602, and the handler is not called again", async () => {
    const seen: Seen[] = [];
    const rejections: string[] = [];
    const server = onboardingServer({ legacyInputRequired: "shim", requestStateSecurity: security(rejections), logger: recordingLogger() }, (call) =>
      seen.push(call),
    );
    server.tool("other", { inputSchema: { type: "object" } }, () => inputRequired({ requestState: "other tool's state" }));
    const stolen = (await pair(server).result("tools/call", { name: "other", arguments: {} })).requestState as string;
    // A middleware after the boundary that swaps the sealed state for another tool's token: the retry's check must catch it.
    server.server.use({ onInputRequired: (result) => ({ ...result, requestState: stolen }) });
    seen.length = 0;

    const raw = rawSession(server, (request) => answerOnboarding(String(request.params.message)));
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: "onboard", arguments: {} })) as { error: { code: number; message: string } };
    expect(response.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    expect(seen).toEqual([{ requestState: undefined, inputResponses: [] }]);
    expect(rejections).toEqual([expect.stringContaining('sealed for target "other"')]);
  });
});

describe("the shim's bounds and refusals", () => {
  const askingForever = (options: ConstructorParameters<typeof McpServer>[1] = {}) => {
    const server = new McpServer({ name: "shim-bounds", version: "1.0.0" }, { legacyInputRequired: "shim", logger: recordingLogger(), ...options });
    const form = { type: "object" as const, properties: { ok: { type: "boolean" as const } } };
    let round = 0;
    server.tool("ask", { inputSchema: { type: "object" } }, () =>
      inputRequired({
        inputRequests: { ok: { method: "elicitation/create", params: { message: `Round ${++round}?`, requestedSchema: form } } },
        requestState: String(round),
      }),
    );
    return server;
  };

  it("a handler that never completes ends after legacySessions.maxRounds with the error saying so", async () => {
    const raw = rawSession(askingForever({ legacySessions: { maxRounds: 3 } }), () => ({ action: "accept", content: { ok: true } }));
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: "ask", arguments: {} })) as { error: { code: number; message: string } };
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toContain('tool "ask" still returned an InputRequiredResult after 3 rounds asked over the session (legacyInputRequired: "shim")');
    expect(response.error.message).toContain("each round asking something new; if the handler really asks this much, raise legacySessions.maxRounds");
    expect(raw.asked().map((request) => request.params.message)).toEqual(["Round 1?", "Round 2?", "Round 3?"]);
  });

  it("a handler that asks the same again is told to take its answers, not to raise maxRounds", async () => {
    const server = new McpServer(
      { name: "shim-forgetful", version: "1.0.0" },
      { legacyInputRequired: "shim", logger: recordingLogger(), legacySessions: { maxRounds: 2 } },
    );
    const form = { type: "object" as const, properties: { ok: { type: "boolean" as const } } };
    server.tool("forgetful", { inputSchema: { type: "object" } }, () =>
      inputRequired({ inputRequests: { ok: { method: "elicitation/create", params: { message: "OK?", requestedSchema: form } } } }),
    );
    const raw = rawSession(server, () => ({ action: "accept", content: { ok: true } }));
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: "forgetful", arguments: {} })) as { error: { code: number; message: string } };
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toContain("after 2 rounds asked over the session");
    expect(response.error.message).toContain("asking again what an earlier round asked. Check that the handler completes once ctx.inputResponses holds its answers");
    expect(response.error.message).not.toContain("raise");
    expect(raw.asked()).toHaveLength(2);
  });

  it("a question the client declared no capability for is -32021, before anything is asked", async () => {
    const raw = rawSession(askingForever(), () => undefined);
    await raw.initialize({ roots: {} });
    const response = (await raw.request("tools/call", { name: "ask", arguments: {} })) as { error: { code: number } };
    expect(response.error.code).toBe(-32021);
    expect(raw.asked()).toEqual([]);
  });

  it("a client that never answers: the call fails after requestTimeoutMs", async () => {
    const raw = rawSession(askingForever({ legacySessions: { requestTimeoutMs: 50 } }), () => undefined);
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: "ask", arguments: {} })) as { error: { message: string } };
    expect(response.error.message).toContain("did not answer elicitation/create within 0.05 s (legacySessions.requestTimeoutMs)");
  });

  it("notifications/cancelled ends the call and cancels the question it waits on", async () => {
    const raw = rawSession(askingForever(), () => undefined);
    await raw.initialize();
    const call = raw.request("tools/call", { name: "ask", arguments: {} });
    await vi.waitFor(() => expect(raw.asked()).toHaveLength(1));
    const callId = 2; // initialize was 1
    await raw.session.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: callId, reason: "user gave up" } });
    expect(await call).toBeUndefined();
    await vi.waitFor(() =>
      expect(raw.outbound).toContainEqual(
        expect.objectContaining({ method: "notifications/cancelled", params: expect.objectContaining({ requestId: raw.asked()[0]!.id }) }),
      ),
    );
    expect(raw.asked()).toHaveLength(1);
  });

  it('under legacy: "stateless" there is no back channel: -32603 saying why and what to do', async () => {
    const server = askingForever({ legacy: "stateless" });
    await server.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE });
    const response = (await server.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } })) as {
      error: { code: number; message: string };
    };
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toContain('tool "ask" returned an InputRequiredResult built by hand; a 2025 client cannot answer it');
    expect(response.error.message).toContain(
      'without a session (legacy: "stateless"), so there is no back channel to ask over and legacyInputRequired: "shim" cannot run',
    );
    expect(response.error.message).toContain('Serve 2025 clients with sessions (legacy: "sessions", the default), or connect with a 2026-07-28 client');
  });

  it('under legacy: "stateless" without the option the -32603 names both settings it would take', async () => {
    const server = onboardingServer({ legacy: "stateless", logger: recordingLogger() });
    await server.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE });
    const response = (await server.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "onboard", arguments: {} } })) as {
      error: { code: number; message: string };
    };
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toContain(
      'Serve 2025 clients with sessions (legacy: "sessions", the default) and set legacyInputRequired: "shim", or connect with a 2026-07-28 client',
    );
  });

  it("an unknown value is refused at construction", () => {
    expect(() => new McpServer({ name: "x-server", version: "1" }, { legacyInputRequired: "ask" as never })).toThrow(
      /legacyInputRequired must be "reject" \(the default\) or "shim", got "ask"/,
    );
  });
});
