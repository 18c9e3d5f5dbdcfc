// Methods outside the protocol schema: setRequestHandler / setNotificationHandler on the server,
// client.request / client.notify on the client, over HTTP, stdio and in memory, for both generations.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Client, InvalidServerResult, McpError } from "mcp-roundtrip/client";
import { McpServer, Server } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { ensureBuilt, root } from "../client/ensure-built.js";
// @ts-expect-error a plain ES module fixture, shared with the stdio child
import { widgetServer } from "./fixtures/widgets.mjs";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
const sayYes = () => ({ action: "accept" as const, content: { yes: true } });

async function errorOf(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe("a custom method round-trips on every transport", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    ensureBuilt("runtime/entries/server.js");
    http = await serveHttp(widgetServer());
  }, 180_000);
  afterAll(() => http.close());

  const targets = {
    "in memory": () => widgetServer(),
    HTTP: () => http.url,
    stdio: () => ({ command: process.execPath, args: [join(root, "test/server/fixtures/widgets.mjs"), "--stdio"] }),
  };

  for (const [name, target] of Object.entries(targets)) {
    it(`${name}: serves widgets/list with its params checked, asks and seals for widgets/delete, refuses bad params with -32602 naming the path`, async () => {
      const client = await Client.connect(target(), { onElicit: sayYes });
      try {
        expect(await client.request("widgets/list", { limit: 2 })).toMatchObject({ widgets: ["w1", "w2"] });
        // MRTR: the server asks, the client answers with its callback and retries, the state comes back verified.
        expect(await client.request("widgets/delete", { id: "w2" })).toMatchObject({ deleted: "w2", state: '{"asked":"w2"}' });
        const error = await errorOf(client.request("widgets/list", { limit: 0 }));
        expect(error.code).toBe(-32602);
        expect(error.message).toContain("/params/limit");
        expect(error.data).toMatchObject({ issues: [{ path: "/params/limit" }] });
        const unknown = await errorOf(client.request("widgets/nope"));
        expect(unknown.code).toBe(-32601);
      } finally {
        await client.close();
      }
    }, 30_000);
  }

  it("serves a 2025 client in its session the same way", async () => {
    const client = await Client.connect(widgetServer(), { mode: "2025-11-25", onElicit: sayYes });
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(await client.request("widgets/list", { limit: 1 })).toMatchObject({ widgets: ["w1"] });
      expect((await errorOf(client.request("widgets/list", { extra: true }))).message).toContain("/params/extra");
    } finally {
      await client.close();
    }
  });
});

describe("setRequestHandler", () => {
  it("gets the envelope checks of every request: a 2026 request without _meta is -32602, an unknown version -32022", async () => {
    const server = widgetServer();
    const bare = (await server.handle({ jsonrpc: "2.0", id: 1, method: "widgets/list", params: {} }, { protocolVersionHeader: "2026-07-28" })) as {
      error: { code: number };
    };
    expect(bare.error.code).toBe(-32602);
    const future = (await server.handle({
      jsonrpc: "2.0",
      id: 2,
      method: "widgets/list",
      params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
    })) as { error: { code: number } };
    expect(future.error.code).toBe(-32022);
    const ok = (await server.handle(request(3, "widgets/list"))) as { result: Record<string, unknown> };
    // Finished like a built-in result: resultType and serverInfo stamped.
    expect(ok.result).toMatchObject({ widgets: ["w1", "w2", "w3"], resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "widgets" } } });
  });

  it("refuses a requestState it did not seal, and one sealed for other params", async () => {
    const server = widgetServer();
    const first = (await server.handle(request(1, "widgets/delete", { id: "w1" }))) as { result: { requestState: string } };
    const token = first.result.requestState;
    expect(token.startsWith("v1.")).toBe(true);
    const forged = (await server.handle(request(2, "widgets/delete", { id: "w1", requestState: "v1.AAAA", inputResponses: { sure: sayYes() } }))) as {
      error: { code: number; data: unknown };
    };
    expect(forged.error).toMatchObject({ code: -32602, data: { reason: "invalid_request_state" } });
    const replayed = (await server.handle(request(3, "widgets/delete", { id: "w9", requestState: token, inputResponses: { sure: sayYes() } }))) as {
      error: { code: number };
    };
    expect(replayed.error.code).toBe(-32602);
    const honest = (await server.handle(request(4, "widgets/delete", { id: "w1", requestState: token, inputResponses: { sure: sayYes() } }))) as {
      result: Record<string, unknown>;
    };
    expect(honest.result).toMatchObject({ deleted: "w1" });
  });

  it("checks the result against its schema: a misfit is -32603, not a malformed answer", async () => {
    const server = new Server({ name: "s", version: "1" }).setRequestHandler("widgets/list", { result: { type: "object", required: ["widgets"] } }, () => ({
      oops: 1,
    }));
    const answer = (await server.handle(request(1, "widgets/list"))) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32603);
  });

  it("takes Standard Schemas: the handler gets the library's output, and its issues name the path", async () => {
    const seen: unknown[] = [];
    const server = new McpServer({ name: "zod", version: "1" }).setRequestHandler(
      "widgets/find",
      { params: z.object({ query: z.string().trim().min(1), limit: z.number().default(5) }) },
      (params) => {
        seen.push(params);
        return { found: [] };
      },
    );
    const client = await Client.connect(server);
    await client.request("widgets/find", { query: "  bolts " });
    expect(seen).toEqual([{ query: "bolts", limit: 5 }]);
    const error = await errorOf(client.request("widgets/find", { query: "" }));
    expect(error).toMatchObject({ code: -32602 });
    expect(error.message).toContain("/params/query");
  });

  it("refuses to shadow a method the protocol defines, unless told so", () => {
    const server = new McpServer({ name: "s", version: "1" });
    // @ts-expect-error a built-in method needs { override: true }, and its handler returns a CallToolResult
    expect(() => server.setRequestHandler("tools/call", {}, () => ({}))).toThrow(/tools\/call is defined by the protocol.*override: true/);
    expect(() => server.setRequestHandler("widgets/list", {}, () => ({})).setRequestHandler("widgets/list", {}, () => ({}))).toThrow(/already registered/);
    expect(() => server.setRequestHandler("", {}, () => ({}))).toThrow(TypeError);
    expect(() => server.setRequestHandler("widgets/x", { params: 42 as never }, () => ({}))).toThrow(/JSON Schema object or a Standard Schema/);
  });

  it("replaces a built-in method on purpose with override", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.setRequestHandler("tools/list", { override: true }, () => ({ tools: [{ name: "virtual", inputSchema: { type: "object" } }] }));
    const client = await Client.connect(server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["virtual"]);
  });
});

describe("setNotificationHandler and client.notify", () => {
  it("delivers a custom notification with its params checked; a misfit or a throwing handler is only logged", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => void warnings.push(message), error() {} };
    const got: unknown[] = [];
    const server = new McpServer({ name: "n", version: "1" }, { logger }).setNotificationHandler(
      "notifications/widgets/seen",
      { params: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      (params) => {
        if (params.id === "boom") throw new Error("boom");
        got.push(params.id);
      },
    );
    const client = await Client.connect(server);
    await client.notify("notifications/widgets/seen", { id: "w1" });
    await client.notify("notifications/widgets/seen", { id: 7 });
    await client.notify("notifications/widgets/seen", { id: "boom" });
    await vi.waitFor(() => expect(warnings).toHaveLength(2));
    expect(got).toEqual(["w1"]);
    expect(warnings.every((warning) => warning.startsWith("notifications/widgets/seen"))).toBe(true);
  });
});

describe("client.request's result schema", () => {
  it("rejects a result that does not fit, naming the path, and resolves a Standard Schema's output", async () => {
    const client = await Client.connect(widgetServer());
    const wrong = await client
      .request("widgets/list", {}, { result: { type: "object", properties: { widgets: { type: "array", items: { type: "number" } } } } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(wrong).toBeInstanceOf(InvalidServerResult);
    expect((wrong as Error).message).toContain("/widgets/0");
    const counted = await client.request("widgets/list", {}, { result: z.object({ widgets: z.array(z.string()).transform((list) => list.length) }) });
    expect(counted).toEqual({ widgets: 3 });
  });
});
