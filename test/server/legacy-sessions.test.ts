// 2025-era clients on the same server and handlers as 2026-07-28 ones: the handshake, the back channel
// that declared needs ask over, and every way a session can be misused, as a client sees it.
import { describe, expect, it, vi } from "vitest";
import { Client, type ElicitRequestParams, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";
import { McpServer, elicit, inputRequired, listRoots, type ServerLogger, type JsonRpcMessage } from "mcp-roundtrip/server";
import { validate } from "mcp-roundtrip/validate";
import type { ServerSession } from "../../runtime/transport/types.js";
import { meta, recordingLogger } from "./helpers.js";
import { rawSession } from "./raw-legacy-session.js";

const regionForm = { type: "object", properties: { region: { type: "string", enum: ["eu-west-1", "us-east-1"] } }, required: ["region"] } as const;
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function provisioner(options: { legacy?: "sessions" | "stateless" | "reject"; logger?: ServerLogger; requestTimeoutMs?: number; maxRounds?: number } = {}) {
  const server = new McpServer(
    { name: "provisioner-2025", version: "1.0.0" },
    {
      ...(options.legacy === undefined ? {} : { legacy: options.legacy }),
      logger: options.logger ?? recordingLogger(),
      legacySessions: { requestTimeoutMs: options.requestTimeoutMs ?? 5_000, maxRounds: options.maxRounds ?? 16 },
    },
  );
  server.tool(
    "provision",
    {
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })),
    },
    (args, { region }) => text(`Provisioned ${String(args.name)} in ${region.action === "accept" ? region.content.region : "nowhere"}.`),
  );
  server.tool("by-hand", { inputSchema: { type: "object" } }, (_args, ctx) =>
    ctx.inputResponses?.confirm === undefined
      ? inputRequired({
          inputRequests: { confirm: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } } } },
        })
      : text("done"),
  );
  server.tool("roots", { inputSchema: { type: "object" }, needs: (need) => need.add("roots", () => listRoots()) }, (_args, { roots }) =>
    text(roots.map((root) => root.uri).join(",")),
  );
  server.tool("chatty", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    for (const level of ["debug", "info", "error"] as const) {
      await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/message", params: { level, data: level } });
    }
    return text("logged");
  });
  server.resource("config://app", { name: "app config" }, () => "v1");
  return server;
}

describe("one McpServer, both generations", () => {
  it("answers a 2026 client through MRTR and a 2025 client over the back channel, with the same needs", async () => {
    const server = provisioner();
    const asked: Array<{ generation: string; message: string }> = [];
    const onElicit = (generation: string) => async (params: ElicitRequestParams) => {
      asked.push({ generation, message: params.message });
      return { action: "accept" as const, content: { region: "eu-west-1" } };
    };
    const modern = await Client.connect(server, { onElicit: onElicit("2026") });
    const legacy = await Client.connect(server, { onElicit: onElicit("2025"), mode: "2025-11-25" });
    expect(modern.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(legacy.protocolVersion).toBe("2025-11-25");
    expect(await modern.callTool("provision", { name: "orders" })).toMatchObject(text("Provisioned orders in eu-west-1."));
    expect(await legacy.callTool("provision", { name: "billing" })).toMatchObject(text("Provisioned billing in eu-west-1."));
    expect(asked).toEqual([
      { generation: "2026", message: "Which region?" },
      { generation: "2025", message: "Which region?" },
    ]);
    await legacy.close();
    expect(server.server.openSessions).toBe(0);
  });

  it("answers initialize with the version, 2025-shaped capabilities and serverInfo, valid under the 2025 schema", async () => {
    const raw = rawSession(provisioner());
    const response = await raw.initialize({}, "2025-06-18");
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { logging: {}, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } },
        serverInfo: { name: "provisioner-2025", version: "1.0.0" },
      },
    });
    expect(validate("InitializeResult", (response as { result: unknown }).result, { revision: "2025-11-25" }).ok).toBe(true);
    expect(raw.session.protocolVersion).toBe("2025-06-18");
  });

  it("offers its newest 2025 revision to a client asking for one it does not speak", async () => {
    const raw = rawSession(provisioner());
    expect(await raw.initialize({}, "2024-11-05")).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  });

  it("returns 2025-shaped results: no resultType, no caching hints", async () => {
    const raw = rawSession(provisioner());
    await raw.initialize();
    const listed = (await raw.request("tools/list")) as { result: Record<string, unknown> };
    expect(listed.result).not.toHaveProperty("resultType");
    expect(listed.result).not.toHaveProperty("ttlMs");
    expect(validate("ListToolsResult", listed.result, { revision: "2025-11-25" }).ok).toBe(true);
    const read = (await raw.request("resources/read", { uri: "config://app" })) as { result: Record<string, unknown> };
    expect(read.result).toEqual({ contents: [{ uri: "config://app", text: "v1" }] });
  });

  it("sends each need's request on the call's own channel and validates the answer like the 2026 path", async () => {
    const answers = [
      { action: "accept", content: { region: "mars" } },
      { action: "accept", content: { region: "us-east-1" } },
    ];
    const raw = rawSession(provisioner(), () => answers.shift());
    await raw.initialize();
    const response = await raw.request("tools/call", { name: "provision", arguments: { name: "x" } });
    // "mars" is not in the enum: the need asks again instead of running the body with it.
    const asked = raw.outbound.filter((message) => "method" in message && message.method === "elicitation/create");
    expect(asked).toHaveLength(2);
    expect(response).toEqual({ jsonrpc: "2.0", id: 2, result: text("Provisioned x in us-east-1.") });
  });

  it("asks for roots over the session", async () => {
    const raw = rawSession(provisioner(), (request) => (request.method === "roots/list" ? { roots: [{ uri: "file:///work" }] } : {}));
    await raw.initialize();
    expect(await raw.request("tools/call", { name: "roots", arguments: {} })).toMatchObject({ result: text("file:///work") });
  });

  it("holds its requests to the client back until the client sent notifications/initialized", async () => {
    const raw = rawSession(provisioner(), (request) => (request.method === "roots/list" ? { roots: [{ uri: "file:///later" }] } : {}));
    await raw.initialize(undefined, undefined, false);
    const call = raw.request("tools/call", { name: "roots", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The lifecycle page: no request but ping before initialized. The call waits rather than failing.
    expect(raw.asked()).toEqual([]);
    await raw.initialized();
    expect(await call).toMatchObject({ result: text("file:///later") });
    expect(raw.asked().map((request) => request.method)).toEqual(["roots/list"]);
  });
});

describe("what a 2025 client cannot do, each with a clear error", () => {
  it("a hand-built InputRequiredResult in a 2025 session is -32603 pointing to needs and to legacyInputRequired", async () => {
    const logger = recordingLogger();
    const raw = rawSession(provisioner({ logger }));
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: "by-hand", arguments: {} })) as { error: { code: number; message: string } };
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toContain("needs a 2026-07-28 client");
    expect(response.error.message).toContain("needs (elicit, elicitUrl, sample, listRoots)");
    expect(response.error.message).toContain('tool "by-hand" returned an InputRequiredResult built by hand; a 2025-11-25 client cannot answer it');
    expect(response.error.message).toContain('set legacyInputRequired: "shim" to ask them over the session');
    expect(raw.outbound.some((message) => "method" in message && message.method === "elicitation/create")).toBe(false);
  });

  it("a request before initialize", async () => {
    const raw = rawSession(provisioner());
    const response = (await raw.request("tools/list")) as { error: { code: number; message: string } };
    expect(response.error.code).toBe(-32600);
    expect(response.error.message).toContain("before initialize");
    // ping is allowed before the handshake, and the session still initializes afterwards.
    expect(await raw.request("ping")).toMatchObject({ result: {} });
    expect(await raw.initialize()).toHaveProperty("result");
  });

  it("a session that mixes generations", async () => {
    const raw = rawSession(provisioner());
    await raw.initialize();
    const response = (await raw.session.handle({ jsonrpc: "2.0", id: 9, method: "tools/list", params: { _meta: meta() } })) as {
      error: { code: number; message: string };
    };
    expect(response.error).toMatchObject({ code: -32600 });
    expect(response.error.message).toContain("one protocol generation per connection");
    // The session itself is undisturbed.
    expect(await raw.request("tools/list")).toHaveProperty("result.tools");
  });

  it("a second initialize", async () => {
    const raw = rawSession(provisioner());
    await raw.initialize();
    expect(await raw.initialize()).toMatchObject({ error: { code: -32600, message: expect.stringContaining("already initialized") } });
  });

  it("a need the client declared no capability for is -32021, and nothing is asked", async () => {
    const raw = rawSession(provisioner());
    await raw.initialize({});
    const response = await raw.request("tools/call", { name: "provision", arguments: { name: "x" } });
    expect(response).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } } });
    expect(raw.outbound).toHaveLength(0);
  });

  it("a malformed 2025 request is -32602 naming the field, judged by the 2025 schema", async () => {
    const raw = rawSession(provisioner());
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: 42 })) as { error: { code: number; message: string } };
    expect(response.error.code).toBe(-32602);
    expect(response.error.message).toContain("/params/name");
  });

  it("a client that never answers: the call fails after requestTimeoutMs, saying so", async () => {
    const server = provisioner({ requestTimeoutMs: 50 });
    const session = server.openSession({ send: () => {} });
    await session.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "x", version: "1" } },
    });
    await session.handle({ jsonrpc: "2.0", method: "notifications/initialized" });
    const response = (await session.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "provision", arguments: { name: "x" } } })) as {
      error: { message: string };
    };
    expect(response.error.message).toContain("did not answer elicitation/create within 0.05 s");
  });

  it("a client whose answer does not fit the form is asked once more with the reason, then the call ends with -32602 naming the key and the path", async () => {
    const logger = { ...recordingLogger(), debug: vi.fn() };
    const server = new McpServer({ name: "provisioner-2025", version: "1.0.0" }, { logger, logLevel: "debug", legacySessions: { maxRounds: 16 } });
    server.tool(
      "provision",
      { inputSchema: { type: "object" }, needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })) },
      () => text("unreachable"),
    );
    const raw = rawSession(server, () => ({ action: "accept", content: { region: "mars" } }));
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: "provision", arguments: {} })) as { error: { code: number; message: string; data: unknown } };
    const asked = raw.outbound.filter((message) => "method" in message) as unknown as { params: { message: string } }[];
    expect(asked.map((request) => request.params.message)).toEqual([
      "Which region?",
      'Which region? (Your previous answer was not accepted: /content/region must be one of ["eu-west-1","us-east-1"])',
    ]);
    expect(response.error).toEqual({
      code: -32602,
      message: 'The answer for input "region" did not fit its request, again after it was asked once more: /content/region must be one of ["eu-west-1","us-east-1"]',
      data: { reason: "invalid_input_response", inputKey: "region", issues: [{ path: "/content/region", message: 'must be one of ["eu-west-1","us-east-1"]' }] },
    });
    const calls = logger.debug.mock.calls.filter(([message]) => !String(message).startsWith("2025 session "));
    const lines = calls.map(([message]) => message as string);
    expect(calls[1]![1]).toMatchObject({ method: "tools/call", tool: "provision", round: 2, decision: "asked", inputKeys: ["region"], reasked: ["region"] });
    expect(lines).toEqual([
      'tools/call "provision": round 1: asking "region" (not asked yet)',
      'tools/call "provision": round 2: asking "region" (the answer did not fit (/content/region must be one of ["eu-west-1","us-east-1"]); asked once more)',
      'tools/call "provision": the answer for "region" (asked once more in round 2) did not fit again (/content/region must be one of ["eu-west-1","us-east-1"]); ending with -32602',
    ]);
  });

  it("distinct questions that outrun maxRounds end with -32603 and the advice to raise it", async () => {
    const server = new McpServer({ name: "chain-2025", version: "1.0.0" }, { logger: recordingLogger(), legacySessions: { maxRounds: 2 } });
    const yes = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as const;
    server.tool(
      "chain",
      {
        inputSchema: { type: "object" },
        needs: (need) =>
          need
            .add("one", () => elicit({ message: "First?", schema: yes }))
            .add("two", (_args, { one }) => elicit({ message: `Second after ${one.action}?`, schema: yes }))
            .add("three", (_args, { two }) => elicit({ message: `Third after ${two.action}?`, schema: yes })),
      },
      () => text("unreachable"),
    );
    const raw = rawSession(server, () => ({ action: "accept", content: { ok: true } }));
    await raw.initialize();
    const response = (await raw.request("tools/call", { name: "chain", arguments: {} })) as { error: { code: number; message: string } };
    expect(response.error.code).toBe(-32603);
    expect(response.error.message).toContain("after 2 rounds");
    expect(response.error.message).toContain("every round asked new questions (raise legacySessions.maxRounds if the tool really asks this much)");
    expect(raw.outbound.filter((message) => "method" in message)).toHaveLength(2);
  });

  it("a client that refuses the request: its error is named", async () => {
    const server = provisioner();
    let session!: ServerSession;
    session = server.openSession({ send: () => {} });
    const context = {
      sendRelated: (message: JsonRpcMessage) =>
        queueMicrotask(() => void session.handle({ jsonrpc: "2.0", id: (message as { id: number }).id, error: { code: -32601, message: "no forms here" } })),
    };
    await session.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "x", version: "1" } },
    });
    await session.handle({ jsonrpc: "2.0", method: "notifications/initialized" });
    const response = (await session.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "provision", arguments: { name: "x" } } }, context)) as {
      error: { code: number; message: string };
    };
    expect(response.error).toEqual({ code: -32601, message: "The client refused elicitation/create: no forms here" });
  });

  it("cancelling the call cancels the question the server is waiting on", async () => {
    const server = provisioner();
    const sent: JsonRpcMessage[] = [];
    const session = server.openSession({ send: (message) => void sent.push(message) });
    const context = { sendRelated: (message: JsonRpcMessage) => void sent.push(message) };
    await session.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "x", version: "1" } },
    });
    await session.handle({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = session.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "provision", arguments: { name: "x" } } }, context);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await session.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "user gave up" } });
    expect(await call).toBeUndefined(); // a cancelled request gets no answer
    const askedId = (sent[0] as { id: number }).id;
    expect(sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: askedId } });
  });
});

describe("session services", () => {
  it("tells sessions when the tool list changes, and subscribers when a resource updates", async () => {
    const server = provisioner();
    const raw = rawSession(server);
    await raw.initialize();
    server.tool("later", { inputSchema: { type: "object" } }, () => text("late"));
    expect(await raw.request("resources/subscribe", { uri: "config://app" })).toMatchObject({ result: {} });
    server.resourceUpdated("config://app");
    server.resourceUpdated("config://other");
    await vi.waitFor(() => expect(raw.outbound).toHaveLength(2));
    expect(raw.outbound).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "config://app" } },
    ]);
    expect(await raw.request("resources/unsubscribe", { uri: "config://app" })).toMatchObject({ result: {} });
    server.resourceUpdated("config://app");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(raw.outbound).toHaveLength(2);
  });

  it("sends every log level until logging/setLevel, then only that level and above", async () => {
    const raw = rawSession(provisioner());
    await raw.initialize();
    await raw.request("tools/call", { name: "chatty", arguments: {} });
    expect(raw.outbound.map((message) => (message as unknown as { params: { level: string } }).params.level)).toEqual(["debug", "info", "error"]);
    raw.outbound.length = 0;
    expect(await raw.request("logging/setLevel", { level: "info" })).toMatchObject({ result: {} });
    await raw.request("tools/call", { name: "chatty", arguments: {} });
    expect(raw.outbound.map((message) => (message as unknown as { params: { level: string } }).params.level)).toEqual(["info", "error"]);
  });

  it("sends a 2026-07-28 request no log message unless its _meta asks for a level", async () => {
    const server = provisioner();
    const seen: unknown[] = [];
    const call = (extra: Record<string, unknown>) =>
      server.handle(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "chatty", arguments: {}, _meta: { ...meta(), ...extra } } },
        { sendNotification: (notification) => void seen.push(notification.params?.level) },
      );
    await call({});
    expect(seen).toEqual([]);
    await call({ "io.modelcontextprotocol/logLevel": "info" });
    expect(seen).toEqual(["info", "error"]);
  });
});

describe("the legacy option", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "x", version: "1" } },
  };

  it('"stateless": 2025 requests answered one by one; a need that would ask is a tool error that says why', async () => {
    const server = provisioner({ legacy: "stateless" });
    expect(() => server.openSession({ send: () => {} })).toThrow(/statelessly/);
    expect(await server.handle(initialize)).toMatchObject({ result: { protocolVersion: "2025-11-25", capabilities: { tools: {}, resources: {} } } });
    const response = (await server.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "provision", arguments: { name: "x" } } })) as unknown as {
      result: { isError: boolean; content: Array<{ text: string }> };
    };
    expect(response.result.isError).toBe(true);
    expect(response.result.content[0]!.text).toContain("served without a session");
    expect(await server.handle({ jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri: "config://app" } })).toMatchObject({
      error: { code: -32601 },
    });
  });

  it('"reject": every 2025 request gets -32022 naming the supported versions', async () => {
    const server = provisioner({ legacy: "reject" });
    for (const message of [initialize, { jsonrpc: "2.0", id: 2, method: "tools/list" }]) {
      expect(await server.handle(message)).toMatchObject({ error: { code: -32022, data: { supported: [...MODERN_VERSIONS] } } });
    }
    const discovered = (await server.handle({ jsonrpc: "2.0", id: 3, method: "server/discover", params: { _meta: meta() } })) as unknown as {
      result: { supportedVersions: string[] };
    };
    expect(discovered.result.supportedVersions).toEqual([...MODERN_VERSIONS]);
  });

  it("refuses an unknown mode at construction", () => {
    expect(() => new McpServer({ name: "x-server", version: "1" }, { legacy: "maybe" as never })).toThrow(/legacy must be "sessions", "stateless" or "reject"/);
  });
});
