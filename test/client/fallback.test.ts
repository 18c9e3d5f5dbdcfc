// mode: "auto" against handshake-era servers, decision by decision: what a
// probe answer means, which version initialize offers, the capabilities in
// each revision's shape, the remembered outcome, and the 2025 back channel.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  Client,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  ProtocolVersionUnsupported,
} from "mcp-roundtrip/client";
import { LEGACY_VERSIONS, MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";
import { root } from "./ensure-built.js";

type Reply = (request: JsonRpcRequest) => JsonRpcResponse | Promise<JsonRpcResponse> | undefined;

/** A transport to a scripted server: `reply` answers what it wants to, a 2025 server answers the rest. */
function legacyTransport(reply: Reply = () => undefined) {
  const sent: Array<JsonRpcRequest | JsonRpcNotification> = [];
  let serverRequests: ((request: JsonRpcRequest) => Promise<JsonRpcResponse>) | undefined;
  const transport = {
    sent,
    ask: (request: JsonRpcRequest) => serverRequests!(request),
    setServerRequestHandler(handler: (request: JsonRpcRequest) => Promise<JsonRpcResponse>) {
      serverRequests = handler;
    },
    async request(message: JsonRpcRequest): Promise<JsonRpcResponse> {
      sent.push(message);
      const scripted = await reply(message);
      if (scripted !== undefined) return scripted;
      const ok = (result: Record<string, unknown>): JsonRpcResponse => ({ jsonrpc: "2.0", id: message.id, result });
      switch (message.method) {
        case "server/discover":
          return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } };
        case "initialize":
          return ok({
            protocolVersion: (message.params as { protocolVersion: string }).protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "old", version: "1" },
          });
        case "tools/call":
          return ok({ content: [{ type: "text", text: "old ok" }] });
        default:
          return ok({});
      }
    },
    async notify(message: JsonRpcNotification) {
      sent.push(message);
    },
    async close() {},
  };
  return transport;
}

const methods = (sent: Array<{ method: string }>) => sent.map((message) => message.method);
const initializeOf = (sent: Array<JsonRpcRequest | JsonRpcNotification>) =>
  sent.find((message) => message.method === "initialize") as JsonRpcRequest & { params: { protocolVersion: string; capabilities: Record<string, unknown> } };

describe("the versions this client speaks", () => {
  it("are the package's one list (transport/era.ts), with the literal types the API promises", () => {
    expect(MODERN_PROTOCOL_VERSION).toBe(MODERN_VERSIONS[0]);
    expect(LEGACY_PROTOCOL_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26"]);
    expect(LEGACY_PROTOCOL_VERSIONS).toBe(LEGACY_VERSIONS);
  });
});

describe("what a probe answer means", () => {
  it("falls back to initialize when server/discover answers {} or lists no versions", async () => {
    for (const result of [{}, { supportedVersions: [] }, { supportedVersions: "2025-11-25" }]) {
      const transport = legacyTransport((m) => (m.method === "server/discover" ? { jsonrpc: "2.0", id: m.id, result } : undefined));
      const client = await Client.connect(transport);
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(methods(transport.sent)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
    }
  });

  it("offers the newest shared version a -32022 lists, whatever the order", async () => {
    const transport = legacyTransport((m) =>
      m.method === "server/discover"
        ? {
            jsonrpc: "2.0",
            id: m.id,
            error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2025-03-26", "2025-11-25", "2025-06-18"] } },
          }
        : undefined,
    );
    const client = await Client.connect(transport);
    expect(initializeOf(transport.sent).params.protocolVersion).toBe("2025-11-25");
    expect(client.protocolVersion).toBe("2025-11-25");
  });

  it("fails with the versions on both sides when a DiscoverResult lists none this client speaks", async () => {
    const transport = legacyTransport((m) =>
      m.method === "server/discover" ? { jsonrpc: "2.0", id: m.id, result: { supportedVersions: ["2031-01-01"] } } : undefined,
    );
    const error = (await Client.connect(transport).catch((e: unknown) => e)) as ProtocolVersionUnsupported;
    expect(error).toBeInstanceOf(ProtocolVersionUnsupported);
    expect(error.message).toContain(`lists 2031-01-01, not ${MODERN_PROTOCOL_VERSION}. This client speaks ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(", ")}.`);
    expect(methods(transport.sent)).toEqual(["server/discover"]);
  });

  it("treats a 403 like a 401: an authorization error, never a fallback", async () => {
    for (const status of [401, 403]) {
      const transport = legacyTransport((m) => {
        if (m.method === "server/discover") throw Object.assign(new Error(`refused with HTTP ${status}`), { status });
        return undefined;
      });
      await expect(Client.connect(transport)).rejects.toMatchObject({ status });
      expect(methods(transport.sent)).toEqual(["server/discover"]);
    }
  });
});

describe("the 2025 initialize", () => {
  it("sends the capabilities in the shape of the version it offers", async () => {
    const callbacks = { onElicit: () => ({ action: "decline" as const }), onSample: () => ({}) as never, onListRoots: () => ({ roots: [] }) };
    const shapes: Record<string, unknown> = {};
    for (const mode of ["2025-11-25", "2025-06-18", "2025-03-26"] as const) {
      const transport = legacyTransport();
      await Client.connect(transport, { ...callbacks, mode, capabilities: { extensions: { "io.example/x": {} } } });
      shapes[mode] = initializeOf(transport.sent).params.capabilities;
    }
    expect(shapes).toEqual({
      "2025-11-25": { elicitation: { form: {} }, sampling: {}, roots: {} },
      "2025-06-18": { elicitation: {}, sampling: {}, roots: {} },
      "2025-03-26": { sampling: {}, roots: {} },
    });
  });

  it("refuses server/discover on a 2025 connection with a pointer to what initialize said", async () => {
    const client = await Client.connect(legacyTransport());
    await expect(client.discover()).rejects.toThrow(/server\/discover is a 2026-07-28 method; this server speaks 2025-11-25[\s\S]*serverCapabilities/);
  });
});

describe("a prior outcome", () => {
  it("skips the probe for a server known to be handshake-era, and exposes what to store", async () => {
    const transport = legacyTransport();
    const client = await Client.connect(transport, { negotiated: { protocolVersion: "2025-06-18" } });
    expect(methods(transport.sent)).toEqual(["initialize", "notifications/initialized"]);
    expect(client.negotiated).toEqual({ protocolVersion: "2025-06-18" });
    expect(JSON.parse(JSON.stringify(client.negotiated))).toEqual({ protocolVersion: "2025-06-18" });
  });

  it("probes again when the server no longer answers initialize (it became modern)", async () => {
    const transport = legacyTransport((m) => {
      if (m.method === "initialize") return { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found: initialize" } };
      if (m.method === "server/discover") {
        return { jsonrpc: "2.0", id: m.id, result: { resultType: "complete", supportedVersions: [MODERN_PROTOCOL_VERSION], capabilities: {} } };
      }
      return undefined;
    });
    const client = await Client.connect(transport, { negotiated: { protocolVersion: "2025-11-25" } });
    expect(client.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
    expect(methods(transport.sent)).toEqual(["initialize", "server/discover"]);
  });

  it("rejects a prior outcome that is not one", async () => {
    const transport = legacyTransport();
    await expect(Client.connect(transport, { negotiated: "2025-11-25" as never })).rejects.toThrow(TypeError);
    await expect(Client.connect(transport, { negotiated: { protocolVersion: "2024-11-05" } })).rejects.toThrow(/no version this client speaks/);
  });
});

describe("the 2025 back channel", () => {
  it("answers ping, checks params against the 2025-11-25 schema, and names the missing callback", async () => {
    const transport = legacyTransport();
    const asked: unknown[] = [];
    await Client.connect(transport, {
      onElicit: (params) => {
        asked.push(params);
        return { action: "accept", content: { ok: true } };
      },
    });
    expect(await transport.ask({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const good = { message: "OK?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } };
    expect(await transport.ask({ jsonrpc: "2.0", id: 2, method: "elicitation/create", params: good })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { action: "accept", content: { ok: true } },
    });
    expect(asked).toEqual([good]);
    const bad = await transport.ask({ jsonrpc: "2.0", id: 3, method: "elicitation/create", params: { requestedSchema: {} } });
    expect(bad).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringMatching(/^Invalid params: [\s\S]*message/) } });
    expect(asked).toHaveLength(1);
    const roots = await transport.ask({ jsonrpc: "2.0", id: 4, method: "roots/list" });
    expect(roots).toMatchObject({ id: 4, error: { code: -32601, message: expect.stringMatching(/without onListRoots/) } });
  });
});

describe("over stdio, a server the probe kills", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-respawn-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is started again for initialize, and later connections skip the probe", async () => {
    const log = join(dir, "spawns.log");
    const target = { command: process.execPath, args: [join(root, "test/client/fixtures/dies-on-discover.mjs")], env: { SPAWN_LOG: log } };
    const client = await Client.connect(target);
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      expect((await client.callTool("hello")).content).toEqual([{ type: "text", text: "hello from a server that quits on server/discover" }]);
    } finally {
      await client.close();
    }
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["spawn", "discover → exit", "spawn", "initialize"]);

    const again = await Client.connect(target);
    await again.close();
    expect(readFileSync(log, "utf8").trim().split("\n").slice(4)).toEqual(["spawn", "initialize"]);
  });
});
