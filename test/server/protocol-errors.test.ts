// Each protocol error of the 2026-07-28 request rules, as a client sees it on the wire.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { McpError, inputRequired, Server, type ServerHandlers } from "mcp-roundtrip/server";
import { validate } from "mcp-roundtrip/validate";
import { publishedExamples } from "../support/schema.js";
import { ALL_VERSIONS, MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";
import { ASK_REGION, meta, pair, PROTOCOL_VERSION, recordingLogger } from "./helpers.js";

function makeServer(handlers: ServerHandlers = {}, legacy?: "reject") {
  const logger = recordingLogger();
  const server = new Server(
    { name: "errors", version: "1.0.0" },
    { onListTools: () => ({ tools: [] }), onCallTool: () => ({ content: [] }), ...handlers },
    legacy === undefined ? { logger } : { logger, legacy },
  );
  return { server, logger };
}

describe("JSON-RPC envelope (-32600)", () => {
  const { server } = makeServer();
  it.each([
    ["a string", "tools/list", undefined],
    ["an array (batch)", [{ jsonrpc: "2.0", id: 1, method: "tools/list" }], undefined],
    ["null", null, undefined],
    ["a null id", { jsonrpc: "2.0", id: null, method: "tools/list", params: { _meta: meta() } }, undefined],
    ["an object id", { jsonrpc: "2.0", id: {}, method: "tools/list", params: { _meta: meta() } }, undefined],
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 7, method: "tools/list", params: { _meta: meta() } }, 7],
    ["a numeric method", { jsonrpc: "2.0", id: 8, method: 42 }, 8],
  ])("answers %s with -32600", async (_label, message, id) => {
    const response = await server.handle(message);
    expect(response).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    expect((response as { id?: unknown }).id).toBe(id);
    expect(validate("JSONRPCErrorResponse", response).ok).toBe(true);
  });
});

describe("unknown methods (-32601)", () => {
  it("answers an unknown method", async () => {
    const error = await pair(makeServer().server).error("tools/explode");
    expect(error).toEqual({ code: -32601, message: "Method not found: tools/explode" });
  });

  it("answers a known method whose handler is absent", async () => {
    const error = await pair(makeServer().server).error("prompts/list");
    expect(error.code).toBe(-32601);
    expect(error.message).toContain("prompts/list");
  });

  it("tells a 2025 client which versions it speaks when it sends initialize to a server that refuses them", async () => {
    const response = await makeServer({}, "reject").server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    expect(response).toMatchObject({ id: 1, error: { code: -32022, data: { supported: [...MODERN_VERSIONS], requested: "2025-11-25" } } });
    expect((response as { error: { message: string } }).error.message).toContain(PROTOCOL_VERSION);
    expect((response as { error: { message: string } }).error.message).toContain('legacy is "reject"');
  });

  it("does not treat Object.prototype names as methods", async () => {
    for (const method of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      expect((await pair(makeServer().server).error(method)).code).toBe(-32601);
    }
  });
});

describe("per-request _meta (-32602, -32022)", () => {
  const { server } = makeServer();
  const send = (params: unknown) => server.handle({ jsonrpc: "2.0", id: "m", method: "tools/list", params });

  it("takes a request without the _meta envelope as 2025-era: refused with -32022 when 2025 clients are", async () => {
    const strict = makeServer({}, "reject").server;
    for (const params of [undefined, {}, { _meta: null }, { _meta: [] }]) {
      const response = await strict.handle({ jsonrpc: "2.0", id: "m", method: "tools/list", params });
      expect(response).toMatchObject({ id: "m", error: { code: -32022, data: { supported: [...MODERN_VERSIONS] } } });
    }
  });

  it("answers a request without the _meta envelope as 2025-era by default", async () => {
    for (const params of [undefined, {}]) {
      const response = await send(params);
      expect(response).toEqual({ jsonrpc: "2.0", id: "m", result: { tools: [] } });
    }
  });

  it("rejects a malformed envelope behind a present version claim", async () => {
    for (const meta of [null, []]) {
      const response = await server.handle({ jsonrpc: "2.0", id: "m", method: "server/discover", params: { _meta: meta } });
      expect(response).toMatchObject({ id: "m", error: { code: -32602 } });
      expect((response as { error: { message: string } }).error.message).toContain("/params/_meta");
    }
  });

  it("rejects a missing or non-string protocol version, naming the field", async () => {
    const discover = (params: unknown) => server.handle({ jsonrpc: "2.0", id: "m", method: "server/discover", params });
    const missing = await discover({ _meta: { "io.modelcontextprotocol/clientCapabilities": {} } });
    expect(missing).toMatchObject({ error: { code: -32602 } });
    expect((missing as { error: { message: string } }).error.message).toContain("io.modelcontextprotocol/protocolVersion");
    for (const version of [20260728]) {
      const response = await send({ _meta: { "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/protocolVersion": version } });
      expect(response).toMatchObject({ error: { code: -32602 } });
      expect((response as { error: { message: string } }).error.message).toContain("io.modelcontextprotocol/protocolVersion");
    }
  });

  it("rejects missing client capabilities, naming the field", async () => {
    const response = await send({ _meta: { "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION } });
    expect(response).toMatchObject({ error: { code: -32602 } });
    expect((response as { error: { message: string } }).error.message).toContain("io.modelcontextprotocol/clientCapabilities");
  });

  it("answers an unsupported version with -32022, the supported list and the requested version", async () => {
    for (const requested of ["2025-11-25", "1900-01-01", ""]) {
      const response = await send({ _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": requested } });
      expect(response).toEqual({
        jsonrpc: "2.0",
        id: "m",
        error: { code: -32022, message: "Unsupported protocol version", data: { supported: ALL_VERSIONS, requested } },
      });
      expect(validate("UnsupportedProtocolVersionError", response).ok).toBe(true);
    }
  });

  it("checks the version before the method's own schema", async () => {
    const response = await server.handle({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
    });
    expect(response).toMatchObject({ error: { code: -32022 } });
  });
});

describe("schema validation of incoming messages (-32602 naming the bad field)", () => {
  const { server } = makeServer();
  it.each([
    ["tools/call", { name: 42 }, "/params/name"],
    ["tools/call", {}, "/params/name"],
    ["tools/call", { name: "x", arguments: [] }, "/params/arguments"],
    ["tools/call", { name: "x", requestState: 5 }, "/params/requestState"],
    ["tools/call", { name: "x", inputResponses: { a: 1 } }, "/params/inputResponses/a"],
    ["tools/list", { cursor: 3 }, "/params/cursor"],
    [
      "tools/list",
      { _meta: { ...meta(), "io.modelcontextprotocol/clientCapabilities": { roots: 1 } } },
      "/params/_meta/io.modelcontextprotocol~1clientCapabilities/roots",
    ],
  ])("%s with %j", async (method, params, field) => {
    const error = await pair(server).error(method, params as Record<string, unknown>);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(field);
    expect(error.data).toMatchObject({ issues: expect.arrayContaining([expect.objectContaining({ path: field })]) });
  });

  it("accepts every client request example of the spec", async () => {
    const requests = new Set(["CallToolRequest", "DiscoverRequest", "ListToolsRequest"]);
    const examples = (await publishedExamples("2026-07-28")).filter((entry) => requests.has(entry.definition)).map((entry) => entry.value);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const response = await server.handle(example);
      expect(response, JSON.stringify(example)).toHaveProperty("result");
    }
  });
});

describe("input requests the client cannot answer (-32021)", () => {
  const asking = (inputRequests: Record<string, unknown>) =>
    makeServer({ onCallTool: () => inputRequired({ inputRequests: inputRequests as never, requestState: "s" }) }).server;
  const sampling = (extra: Record<string, unknown> = {}) => ({
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, ...extra },
  });
  const urlElicit = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e1" } };

  it.each([
    ["form elicitation, no capabilities", { q: ASK_REGION }, {}, { elicitation: { form: {} } }],
    ["form elicitation, url mode only", { q: ASK_REGION }, { elicitation: { url: {} } }, { elicitation: { form: {} } }],
    ["url elicitation, bare elicitation (form only)", { q: urlElicit }, { elicitation: {} }, { elicitation: { url: {} } }],
    ["sampling, none declared", { s: sampling() }, { elicitation: {} }, { sampling: {} }],
    [
      "sampling with tools, plain sampling declared",
      { s: sampling({ tools: [{ name: "t", inputSchema: { type: "object" } }] }) },
      { sampling: {} },
      { sampling: { tools: {} } },
    ],
    ["sampling with context inclusion", { s: sampling({ includeContext: "thisServer" }) }, { sampling: {} }, { sampling: { context: {} } }],
    ["roots", { r: { method: "roots/list" } }, { sampling: {} }, { roots: {} }],
    ["several at once", { q: ASK_REGION, r: { method: "roots/list" } }, {}, { elicitation: { form: {} }, roots: {} }],
  ])("%s", async (_label, inputRequests, capabilities, required) => {
    const response = await pair(asking(inputRequests), capabilities).send("tools/call", { name: "t" });
    expect(response).not.toHaveProperty("result");
    expect(response).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: required } } });
    expect(validate("MissingRequiredClientCapabilityError", response).ok).toBe(true);
  });

  it.each([
    ["form elicitation with bare elicitation", { q: ASK_REGION }, { elicitation: {} }],
    ["url elicitation with url declared", { q: urlElicit }, { elicitation: { url: {} } }],
    ["sampling with tools declared", { s: sampling({ tools: [{ name: "t", inputSchema: { type: "object" } }] }) }, { sampling: { tools: {} } }],
    ["roots declared", { r: { method: "roots/list" } }, { roots: {} }],
  ])("sends the InputRequiredResult when declared: %s", async (_label, inputRequests, capabilities) => {
    const result = await pair(asking(inputRequests), capabilities).result("tools/call", { name: "t" });
    expect(result.resultType).toBe("input_required");
  });
});

describe("handler failures (-32603, -32602)", () => {
  it("maps a thrown Error to -32603 without its message or stack", async () => {
    const { server, logger } = makeServer({
      onCallTool: () => {
        throw new Error("db password hunter2 rejected");
      },
    });
    const response = await pair(server).send("tools/call", { name: "t" });
    expect(response).toMatchObject({ error: { code: -32603, message: "Internal error" } });
    const wire = JSON.stringify(response);
    expect(wire).not.toContain("hunter2");
    expect(wire).not.toMatch(/\bat .*\.(ts|js)/);
    expect(logger.errors).toHaveLength(1);
    expect(String((logger.errors[0]!.details!.error as Error).message)).toContain("hunter2");
  });

  it("maps a rejected promise and a thrown non-Error the same way", async () => {
    for (const onCallTool of [
      () => Promise.reject(new TypeError("x")),
      () => {
        throw "plain string";
      },
    ]) {
      const error = await pair(makeServer({ onCallTool }).server).error("tools/call", { name: "t" });
      expect(error).toEqual({ code: -32603, message: "Internal error" });
    }
  });

  it("passes an McpError through with its code, message and data", async () => {
    const { server } = makeServer({
      onCallTool: (params) => {
        throw new McpError(-32602, `Unknown tool: ${params.name}`, { tool: params.name });
      },
    });
    expect(await pair(server).error("tools/call", { name: "deploy" })).toEqual({ code: -32602, message: "Unknown tool: deploy", data: { tool: "deploy" } });
  });

  it("answers -32603 when a method that cannot ask returns an InputRequiredResult", async () => {
    const { server } = makeServer({ onListTools: () => inputRequired({ requestState: "s" }) as never });
    const error = await pair(server).error("tools/list");
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("only tools/call, prompts/get and resources/read may ask");
  });

  it("answers -32603 for an InputRequiredResult with neither inputRequests nor requestState", async () => {
    const { server } = makeServer({ onCallTool: () => ({ resultType: "input_required", inputRequests: {} }) as never });
    expect((await pair(server).error("tools/call", { name: "t" })).code).toBe(-32603);
  });

  it("answers -32603 naming the field when a handler returns a malformed result", async () => {
    const { server } = makeServer({ onCallTool: () => ({ content: [{ type: "text" }] }) as never });
    const error = await pair(server).error("tools/call", { name: "t" });
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("/content/0/text");
  });

  it("answers -32603 for a non-object or unknown-resultType result", async () => {
    for (const value of [undefined, "text", { resultType: "partial", content: [] }]) {
      const { server } = makeServer({ onCallTool: () => value as never });
      expect((await pair(server).error("tools/call", { name: "t" })).code).toBe(-32603);
    }
  });
});

describe("notifications and responses", () => {
  it("never answers a notification, known or not, and logs an invalid one", async () => {
    const { server, logger } = makeServer();
    expect(await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } })).toBeUndefined();
    expect(await server.handle({ jsonrpc: "2.0", method: "notifications/whatever" })).toBeUndefined();
    expect(logger.warnings).toEqual([]);
    expect(await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: null } })).toBeUndefined();
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain("/params/requestId");
  });

  it("ignores a response (this server sends no requests)", async () => {
    expect(await makeServer().server.handle({ jsonrpc: "2.0", id: 1, result: {} })).toBeUndefined();
  });

  it("notifications/cancelled aborts the handler's signal and suppresses the response", async () => {
    let aborted: unknown;
    let release!: () => void;
    const { server } = makeServer({
      onCallTool: async (_params, ctx) => {
        const signal = ctx.signal;
        await new Promise<void>((resolve) => {
          release = resolve;
          signal.addEventListener("abort", () => resolve());
        });
        aborted = signal.aborted ? signal.reason : false;
        return { content: [] };
      },
    });
    const pending = server.handle({ jsonrpc: "2.0", id: "c1", method: "tools/call", params: { _meta: meta(), name: "t" } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c1", reason: "user" } });
    expect(await pending).toBeUndefined();
    expect(aborted).toBe("user");
    release();
  });

  it('tells the id 1 from the id "1", and keeps a reused id cancellable once its first owner finished', async () => {
    const releases = new Map<string, () => void>();
    const { server } = makeServer({
      onCallTool: async (params, ctx) => {
        await new Promise<void>((resolve) => {
          releases.set(String(params.name), resolve);
          ctx.signal.addEventListener("abort", () => resolve());
        });
        return { content: [{ type: "text", text: String(ctx.signal.aborted) }] };
      },
    });
    const call = (id: string | number, name: string) => server.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta(), name } });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    const numeric = call(1, "numeric");
    const textual = call("1", "textual");
    await pause();
    await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "1" } });
    expect(await textual).toBeUndefined();
    releases.get("numeric")!();
    expect(await numeric).toMatchObject({ result: { content: [{ text: "false" }] } });

    // Two requests under one id: the later one is the one a cancellation names, even after the earlier one finished.
    const first = call(7, "first");
    await pause();
    const second = call(7, "second");
    await pause();
    releases.get("first")!();
    expect(await first).toMatchObject({ result: { content: [{ text: "false" }] } });
    await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } });
    expect(await second).toBeUndefined();
  });

  it("does not let another principal cancel a request", async () => {
    let release!: () => void;
    const { server } = makeServer({
      onCallTool: async (_params, ctx) => {
        await new Promise<void>((resolve) => (release = resolve));
        return { content: [{ type: "text", text: String(ctx.signal.aborted) }] };
      },
    });
    const alice = { authInfo: { clientId: "a", subject: "alice", scopes: [] } };
    const pending = server.handle({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { _meta: meta(), name: "t" } }, alice);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await server.handle(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } },
      { authInfo: { clientId: "a", subject: "mallory", scopes: [] } },
    );
    release();
    expect(await pending).toMatchObject({ result: { content: [{ type: "text", text: "false" }] } });
  });

  it("aborts the handler's signal when the transport's signal aborts", async () => {
    const controller = new AbortController();
    const { server } = makeServer({
      onCallTool: async (_params, ctx) => {
        await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
        return { content: [{ type: "text", text: String(ctx.signal.reason) }] };
      },
    });
    const pending = server.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta(), name: "t" } }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort("gone");
    expect(await pending).toMatchObject({ result: { content: [{ text: "gone" }] } });
  });
});

describe("handle never rejects", () => {
  it("answers any JSON value with a response or nothing, never a stack trace", async () => {
    const { server } = makeServer({
      onCallTool: (params) => {
        if (params.name === "boom") throw new Error("boom");
        return { content: [] };
      },
    });
    const method = fc.constantFrom("tools/call", "tools/list", "server/discover", "prompts/get", "nope", "notifications/cancelled");
    const message = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          jsonrpc: fc.constantFrom("2.0", "1.0"),
          id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
          method,
          params: fc.oneof(fc.jsonValue(), fc.record({ _meta: fc.oneof(fc.constant(meta()), fc.jsonValue()), name: fc.oneof(fc.constant("boom"), fc.string()) })),
        },
        { requiredKeys: ["method"] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(message, async (value) => {
        const response = await server.handle(value);
        if (response === undefined) return;
        // A message without the 2026 envelope is answered as 2025-era, in that revision's shape.
        const valid = (revision: "2026-07-28" | "2025-11-25") =>
          validate("JSONRPCResponse", response, { revision } as never).ok || validate("JSONRPCErrorResponse", response, { revision } as never).ok;
        expect(valid("2026-07-28") || valid("2025-11-25")).toBe(true);
        expect(JSON.stringify(response)).not.toMatch(/\n\s+at |boom/);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a broken logger", () => {
  it("cannot make handle reject", async () => {
    const throwing = {
      warn: () => {
        throw new Error("log down");
      },
      error: () => {
        throw new Error("log down");
      },
    };
    const server = new Server(
      { name: "x", version: "1" },
      {
        onCallTool: () => {
          throw new Error("boom");
        },
      },
      { logger: throwing },
    );
    expect(await pair(server).error("tools/call", { name: "t" })).toEqual({ code: -32603, message: "Internal error" });
    expect(await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} })).toBeUndefined();
  });
});
