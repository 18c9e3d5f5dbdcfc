// End to end over real wires: this SDK's McpServer behind serveHttp / serveStdio,
// reached with Client.connect(url) and Client.connect({ command, args }).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, MODERN_PROTOCOL_VERSION, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { inputRequired, McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { META, mcpHeaders, rpc } from "./helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function weatherServer() {
  const mcp = new McpServer({ name: "e2e-weather", version: "1.0.0" });
  mcp.tool("echo", { description: "Echoes", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, (args) => ({
    content: [{ type: "text", text: String(args.text) }],
  }));
  mcp.tool("forecast", { description: "Asks which city first", inputSchema: { type: "object" } }, (_args, ctx) => {
    const city = (ctx.inputResponses?.city as { content?: { city?: string } } | undefined)?.content?.city;
    if (!city) {
      return inputRequired({
        inputRequests: {
          city: {
            method: "elicitation/create",
            params: { message: "Which city?", requestedSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
          },
        },
        requestState: JSON.stringify({ asked: "city", by: ctx.authInfo?.subject ?? null }),
      });
    }
    return { content: [{ type: "text", text: `${city}: sunny (state ${ctx.requestState})` }] };
  });
  mcp.tool("slow", { description: "Reports progress", inputSchema: { type: "object" } }, async (_args, ctx) => {
    for (const progress of [1, 2, 3]) {
      await ctx.sendNotification({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: ctx.meta.progressToken as string, progress, total: 3 },
      });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  return mcp;
}

describe("Streamable HTTP end to end", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(weatherServer());
  });
  afterAll(() => http.close());

  it("Client.connect(url) runs an MRTR call to completion", async () => {
    const client = await Client.connect(http.url, { onElicit: () => ({ action: "accept", content: { city: "Oslo" } }) });
    try {
      expect(client.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
      const result = await client.callTool("forecast", {});
      expect(result.content).toEqual([{ type: "text", text: 'Oslo: sunny (state {"asked":"city","by":null})' }]);
    } finally {
      await client.close();
    }
  });

  it("delivers progress notifications streamed as SSE", async () => {
    const seen: unknown[] = [];
    const client = await Client.connect(http.url, { onNotification: (notification) => seen.push(notification.params?.progress) });
    try {
      const result = await client.callTool("slow", {}, { meta: { progressToken: "p" } });
      expect(result.content).toEqual([{ type: "text", text: "done" }]);
      expect(seen).toEqual([1, 2, 3]);
    } finally {
      await client.close();
    }
  });

  describe("bad input over the wire gets a clear status and JSON-RPC error; the server keeps serving", () => {
    const send = (body: string, headers: Record<string, string>) => fetch(http.url, { method: "POST", headers, body });
    const { "mcp-protocol-version": _v, ...noVersion } = mcpHeaders("tools/list");
    const cases: Array<[string, string, Record<string, string>, number, number]> = [
      ["malformed JSON", '{"jsonrpc":"2.0",', mcpHeaders("tools/list"), 400, -32700],
      ["a JSON array body", JSON.stringify([rpc("tools/list"), rpc("tools/list", {}, 2)]), mcpHeaders("tools/list"), 400, -32600],
      ["an oversized body", JSON.stringify(rpc("tools/list", { pad: "x".repeat(4 * 1024 * 1024 + 1) })), mcpHeaders("tools/list"), 413, -32600],
      ["a wrong content type", JSON.stringify(rpc("tools/list")), { ...mcpHeaders("tools/list"), "content-type": "application/x-www-form-urlencoded" }, 415, -32600],
      ["an unknown method", JSON.stringify(rpc("tools/unknown")), mcpHeaders("tools/unknown"), 404, -32601],
      ["a missing MCP-Protocol-Version header", JSON.stringify(rpc("tools/list")), noVersion, 400, -32020],
      ["a missing Mcp-Name header", JSON.stringify(rpc("tools/call", { name: "echo", arguments: { text: "x" } })), mcpHeaders("tools/call"), 400, -32020],
      ["a missing _meta envelope", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }), mcpHeaders("tools/list"), 400, -32602],
      [
        "an unsupported protocol version",
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } } }),
        { ...mcpHeaders("tools/list"), "mcp-protocol-version": "1999-01-01" },
        400,
        -32022,
      ],
    ];
    it.each(cases)("%s", async (_label, body, headers, status, code) => {
      const response = await send(body, headers);
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      const json = await response.json();
      expect(json.jsonrpc).toBe("2.0");
      expect(json.error.code).toBe(code);
      expect(json.error.message.length).toBeGreaterThan(10);
      const after = await send(JSON.stringify(rpc("tools/call", { name: "echo", arguments: { text: "still here" } })), mcpHeaders("tools/call", "echo"));
      expect(after.status).toBe(200);
      expect((await after.json()).result.content[0].text).toBe("still here");
    });

    it.each(["GET", "DELETE"])("%s without a 2025 session id gets 400 saying what to send", async (method) => {
      const response = await fetch(http.url, { method, headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toContain("Mcp-Session-Id");
    });

    it.each(["GET", "DELETE"])("%s on a session that does not exist gets 404", async (method) => {
      const response = await fetch(http.url, { method, headers: { accept: "text/event-stream", "mcp-session-id": "nope" } });
      expect(response.status).toBe(404);
      expect((await response.json()).error.message).toContain("Send initialize again");
    });
  });
});

describe("bearer identity binds sealed request state", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(weatherServer(), {
      verifyToken: (token) => {
        const [clientId, subject] = token.split(".");
        return clientId && subject ? { clientId, subject, scopes: [] } : null;
      },
    });
  });
  afterAll(() => http.close());

  const call = (transport: StreamableHttpClientTransport, id: number, extra: Record<string, unknown> = {}) =>
    transport.request({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "forecast", arguments: {}, _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } }, ...extra },
    });
  const answer = { city: { action: "accept", content: { city: "Rome" } } };

  it("accepts the state from the same subject and rejects it from another subject of the same client", async () => {
    const alice = new StreamableHttpClientTransport(http.url, { token: "app.alice" });
    const bob = new StreamableHttpClientTransport(http.url, { token: "app.bob" });
    const first = (await call(alice, 1)) as unknown as { result: { resultType: string; requestState: string } };
    expect(first.result.resultType).toBe("input_required");
    const state = first.result.requestState;

    const stolen = await call(bob, 2, { inputResponses: answer, requestState: state });
    expect(stolen).toMatchObject({ error: { code: -32602, message: "Invalid or expired requestState" } });

    const own = (await call(alice, 3, { inputResponses: answer, requestState: state })) as unknown as { result: { content: Array<{ text: string }> } };
    expect(own.result.content[0]!.text).toContain('"by":"alice"');
  });

  it("answers 401 to Client.connect without a token", async () => {
    await expect(Client.connect(http.url)).rejects.toThrow(/401/);
  });
});

describe("stdio end to end", () => {
  const main = `${root}dist/examples/everything-server/main.js`;
  beforeAll(() => {
    // The example runs from the built package (its imports resolve through the package exports).
    if (!existsSync(main)) {
      const built = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
      if (built.status !== 0) throw new Error("could not build dist/ for the stdio example");
    }
  }, 120_000);

  it("Client.connect({ command, args }) talks to serveStdio, MRTR included, and shuts the server down", async () => {
    const client = await Client.connect(
      { command: process.execPath, args: [main, "--stdio"] },
      { onElicit: () => ({ action: "accept", content: { name: "Ada" } }) },
    );
    try {
      const tools = await client.listAllTools();
      expect(tools.map((tool) => tool.name)).toContain("test_input_required_result_elicitation");
      const result = await client.callTool("test_input_required_result_elicitation", {});
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
      const progressed = await client.callTool("test_tool_with_progress", {}, { meta: { progressToken: 7 } });
      expect(progressed.content).toEqual([{ type: "text", text: "Progress reported for token 7" }]);
    } finally {
      await client.close();
    }
  });
});
