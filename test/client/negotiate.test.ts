import { describe, expect, it } from "vitest";
import {
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  Client,
  McpError,
  MODERN_PROTOCOL_VERSION,
  ProtocolVersionUnsupported,
} from "mcp-roundtrip/client";
import { fakeServer, text } from "./fake-server.js";

/** A handshake-era (2025-11-25) server: no server/discover, initialize first, no resultType. */
function legacyServer(options: { discover?: "method-not-found" | "silent" } = {}) {
  const received: (JsonRpcRequest | JsonRpcNotification)[] = [];
  return {
    received,
    async handle(message: unknown): Promise<JsonRpcResponse | undefined> {
      const request = message as JsonRpcRequest;
      received.push(request);
      if (!("id" in request)) return undefined;
      switch (request.method) {
        case "server/discover":
          if (options.discover === "silent") return new Promise(() => {});
          return { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "Method not found" } };
        case "initialize":
          return {
            jsonrpc: "2.0",
            id: request.id,
            result: {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: { name: "old-server", version: "0.9.0" },
              instructions: "be nice",
            },
          };
        case "tools/call":
          return { jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "legacy ok" }] } };
        default:
          return { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "Method not found" } };
      }
    },
  };
}

describe("protocol negotiation", () => {
  it("speaks the newest modern revision to a modern server and reads serverInfo from server/discover", async () => {
    const server = fakeServer(() => text("ok"));
    const client = await Client.connect(server);
    expect(client.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(client.era).toBe("modern");
    expect(client.serverInfo).toEqual({ name: "fake", version: "1.2.3" });
    expect(client.serverCapabilities).toEqual({ tools: {} });
    expect(server.received[0]!.method).toBe("server/discover");
  });

  it("falls back to the initialize handshake when the server does not know server/discover", async () => {
    const server = legacyServer();
    const client = await Client.connect(server, { onElicit: () => ({ action: "decline" }) });
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.era).toBe("legacy");
    expect(client.serverInfo).toEqual({ name: "old-server", version: "0.9.0" });
    expect(client.instructions).toBe("be nice");
    const result = await client.callTool("t", { a: 1 });
    expect(result.content).toEqual([{ type: "text", text: "legacy ok" }]);
    expect(server.received.map((m) => m.method)).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/call"]);
    const initialize = server.received[1] as JsonRpcRequest;
    expect(initialize.params).toMatchObject({ protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } } });
    const call = server.received[3] as JsonRpcRequest;
    expect(call.params).toEqual({ name: "t", arguments: { a: 1 } });
    const ids = server.received.filter((m): m is JsonRpcRequest => "id" in m).map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("falls back when the probe goes unanswered", async () => {
    const server = legacyServer({ discover: "silent" });
    const client = await Client.connect(server, { probeTimeoutMs: 20 });
    expect(client.era).toBe("legacy");
  });

  it("falls back when an HTTP server refuses the probe with a 4xx that carries no JSON-RPC error", async () => {
    const inner = legacyServer();
    const refusing = (status: number) => ({
      async request(message: JsonRpcRequest): Promise<JsonRpcResponse> {
        if (message.method === "server/discover") throw Object.assign(new Error(`HTTP ${status}`), { status });
        return (await inner.handle(message))!;
      },
      async notify(message: JsonRpcNotification) {
        await inner.handle(message);
      },
      async close() {},
    });
    expect((await Client.connect(refusing(400))).era).toBe("legacy");
    expect((await Client.connect(refusing(405))).era).toBe("legacy");
    await expect(Client.connect(refusing(401))).rejects.toThrow("HTTP 401");
    await expect(Client.connect(refusing(500))).rejects.toThrow("HTTP 500");
  });

  it("uses initialize when a modern server lists only an older version", async () => {
    const server = legacyServer();
    const modernRejecting = {
      handle: (message: unknown) => {
        const request = message as JsonRpcRequest;
        if (request.method === "server/discover") {
          return Promise.resolve<JsonRpcResponse>({
            jsonrpc: "2.0",
            id: request.id,
            error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2025-11-25"], requested: MODERN_PROTOCOL_VERSION } },
          });
        }
        return server.handle(message);
      },
    };
    const client = await Client.connect(modernRejecting);
    expect(client.protocolVersion).toBe("2025-11-25");
  });

  it("follows the versions a DiscoverResult lists", async () => {
    const inner = legacyServer();
    const oldOnly = {
      handle(message: unknown) {
        const request = message as JsonRpcRequest;
        if (request.method === "server/discover") {
          return Promise.resolve<JsonRpcResponse>({
            jsonrpc: "2.0",
            id: request.id,
            result: { resultType: "complete", supportedVersions: ["2025-11-25"], capabilities: {} },
          });
        }
        return inner.handle(message);
      },
    };
    expect((await Client.connect(oldOnly)).protocolVersion).toBe("2025-11-25");
    await expect(Client.connect(oldOnly, { mode: MODERN_PROTOCOL_VERSION })).rejects.toBeInstanceOf(ProtocolVersionUnsupported);
  });

  it("throws ProtocolVersionUnsupported when no version is shared", async () => {
    const server = fakeServer(() => text("ok"), {
      discover: () => ({
        error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2030-01-01"], requested: MODERN_PROTOCOL_VERSION } },
      }),
    });
    const error = (await Client.connect(server).catch((e: unknown) => e)) as ProtocolVersionUnsupported;
    expect(error).toBeInstanceOf(ProtocolVersionUnsupported);
    expect(error.supported).toEqual(["2030-01-01"]);
    expect(server.received).toHaveLength(1);
  });

  it("offers the modern version once more when the server rejects it but lists it as supported", async () => {
    let discovers = 0;
    const rejectsFirst = fakeServer(() => text("ok"), {
      discover: () =>
        ++discovers === 1
          ? { error: { code: -32022, message: "Unsupported protocol version", data: { supported: [MODERN_PROTOCOL_VERSION], requested: MODERN_PROTOCOL_VERSION } } }
          : undefined,
    });
    const client = await Client.connect(rejectsFirst);
    expect(client.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(discovers).toBe(2);
  });

  it("retries that contradiction only once", async () => {
    const alwaysRejects = fakeServer(() => text("ok"), {
      discover: () => ({
        error: { code: -32022, message: "Unsupported protocol version", data: { supported: [MODERN_PROTOCOL_VERSION], requested: MODERN_PROTOCOL_VERSION } },
      }),
    });
    await expect(Client.connect(alwaysRejects)).rejects.toBeInstanceOf(ProtocolVersionUnsupported);
    expect(alwaysRejects.received).toHaveLength(2);
  });

  it("surfaces other modern errors instead of falling back", async () => {
    const server = fakeServer(() => text("ok"), {
      discover: () => ({ error: { code: -32021, message: "Missing required client capability", data: { requiredCapabilities: { roots: {} } } } }),
    });
    await expect(Client.connect(server)).rejects.toMatchObject({ code: -32021 });
  });

  it("with a pinned modern version, does not fall back", async () => {
    const server = legacyServer();
    await expect(Client.connect(server, { mode: MODERN_PROTOCOL_VERSION })).rejects.toBeInstanceOf(McpError);
    expect(server.received.map((m) => m.method)).toEqual(["server/discover"]);
  });

  it("with a pinned legacy version, skips the probe", async () => {
    const server = legacyServer();
    const client = await Client.connect(server, { mode: "2025-11-25" });
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(server.received[0]!.method).toBe("initialize");
  });

  it("answers a 2025 server's back-channel requests with the same callbacks", async () => {
    let serverRequestHandler: ((request: JsonRpcRequest) => Promise<JsonRpcResponse>) | undefined;
    const inner = legacyServer();
    const transport = {
      setServerRequestHandler(handler: (request: JsonRpcRequest) => Promise<JsonRpcResponse>) {
        serverRequestHandler = handler;
      },
      async request(message: JsonRpcRequest): Promise<JsonRpcResponse> {
        if (message.method === "tools/call") {
          // Mid-call, the old server asks the client over the back-channel.
          const asked = await serverRequestHandler!({
            jsonrpc: "2.0",
            id: "srv-1",
            method: "elicitation/create",
            params: { message: "Region?", requestedSchema: { type: "object", properties: { region: { type: "string" } } } },
          });
          const roots = await serverRequestHandler!({ jsonrpc: "2.0", id: "srv-2", method: "roots/list" });
          const sample = await serverRequestHandler!({ jsonrpc: "2.0", id: "srv-3", method: "sampling/createMessage", params: {} });
          return { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: JSON.stringify([asked, roots, sample]) }] } };
        }
        return (await inner.handle(message))!;
      },
      async notify(message: JsonRpcNotification) {
        await inner.handle(message);
      },
      async close() {},
    };
    const keys: unknown[] = [];
    const client = await Client.connect(transport, {
      onElicit: (params, context) => {
        keys.push(context.key);
        return { action: "accept", content: { region: params.message } };
      },
      onListRoots: () => ({ roots: [{ uri: "file:///repo" }] }),
    });
    const result = await client.callTool("t");
    const [asked, roots, sample] = JSON.parse((result.content[0] as { text: string }).text);
    expect(asked).toEqual({ jsonrpc: "2.0", id: "srv-1", result: { action: "accept", content: { region: "Region?" } } });
    expect(roots).toEqual({ jsonrpc: "2.0", id: "srv-2", result: { roots: [{ uri: "file:///repo" }] } });
    expect(sample.error.code).toBe(-32601);
    expect(keys).toEqual([undefined]);
  });

  it("rejects input_required from a handshake-era server", async () => {
    const inner = legacyServer();
    const server = {
      async handle(message: unknown) {
        const request = message as JsonRpcRequest;
        if (request.method === "tools/call") {
          return { jsonrpc: "2.0" as const, id: request.id, result: { resultType: "input_required", requestState: "x" } };
        }
        return inner.handle(message);
      },
    };
    const client = await Client.connect(server);
    await expect(client.callTool("t")).rejects.toThrow(/exists only in protocol 2026-07-28/);
  });
});

describe("Client.connect arguments", () => {
  it("rejects bad options and targets with clear errors", async () => {
    const server = fakeServer(() => text("ok"));
    await expect(Client.connect(server, { inputRequiredMaxRounds: -1 })).rejects.toThrow(RangeError);
    await expect(Client.connect(server, { inputRequiredMaxRounds: 1.5 })).rejects.toThrow(RangeError);
    await expect(Client.connect(server, { mode: "1999-01-01" as never })).rejects.toThrow(/mode must be/);
    await expect(Client.connect(server, { onElicit: "yes" as never })).rejects.toThrow(TypeError);
    await expect(Client.connect(server, { stateOnlyBackoff: { initialMs: 300, maxMs: 100 } })).rejects.toThrow(RangeError);
    await expect(Client.connect(42 as never)).rejects.toThrow(/cannot use number as a target/);
    await expect(Client.connect("http://127.0.0.1:1/mcp")).rejects.toThrow(/Could not reach the MCP server at http:\/\/127.0.0.1:1\/mcp/);
    await expect(Client.connect({ command: "/nonexistent/mcp-server", args: ["server.js"] })).rejects.toThrow(/Could not start the MCP server/);
  });

  it("refuses requests after close", async () => {
    const client = await Client.connect(fakeServer(() => text("ok")));
    await client.close();
    await expect(client.callTool("t")).rejects.toMatchObject({ name: "ClientClosed" });
  });
});
