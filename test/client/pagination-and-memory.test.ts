import { describe, expect, it } from "vitest";
import { type JsonRpcRequest, Client, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { InMemoryClientTransport } from "mcp-roundtrip/server";
import { fakeServer } from "./fake-server.js";

describe("list helpers", () => {
  it("listAllTools follows nextCursor across pages; listTools returns one page", async () => {
    const pages: Record<string, { tools: { name: string }[]; nextCursor?: string }> = {
      start: { tools: [{ name: "a" }, { name: "b" }], nextCursor: "p2" },
      p2: { tools: [{ name: "c" }], nextCursor: "p3" },
      p3: { tools: [{ name: "d" }] },
    };
    const server = fakeServer((params) => ({ resultType: "complete", ...pages[(params.cursor as string | undefined) ?? "start"]! }));
    const client = await Client.connect(server);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["a", "b", "c", "d"]);
    expect(server.calls.map((call) => call.params!.cursor)).toEqual([undefined, "p2", "p3"]);
    const page = await client.listTools("p2");
    expect(page.tools).toEqual([{ name: "c" }]);
    expect(page.nextCursor).toBe("p3");
  });

  it("stops when a server repeats a cursor", async () => {
    const server = fakeServer(() => ({ resultType: "complete", prompts: [{ name: "x" }], nextCursor: "same" }));
    const client = await Client.connect(server);
    await expect(client.listAllPrompts()).rejects.toThrow(/cursor "same" twice/);
  });

  it("lists resources and templates, and sends the envelope on list requests", async () => {
    const server = fakeServer((_params, request) =>
      request.method === "resources/list" ? { resources: [{ uri: "a://1", name: "one" }] } : { resourceTemplates: [{ uriTemplate: "a://{id}", name: "by id" }] },
    );
    const client = await Client.connect(server);
    expect(await client.listAllResources()).toEqual([{ uri: "a://1", name: "one" }]);
    expect(await client.listAllResourceTemplates()).toEqual([{ uriTemplate: "a://{id}", name: "by id" }]);
    for (const call of server.calls)
      expect((call.params!._meta as Record<string, unknown>)["io.modelcontextprotocol/protocolVersion"]).toBe(MODERN_PROTOCOL_VERSION);
  });
});

describe("InMemoryClientTransport", () => {
  it("hands the very objects to the server, without serialising", async () => {
    const server = fakeServer(() => ({ resultType: "complete", content: [] }));
    const client = await Client.connect(server);
    const args = { nested: { list: [1, 2, 3] } };
    await client.callTool("t", args);
    expect(server.calls[0]!.params!.arguments).toBe(args);
  });

  it("passes authInfo, signal and notifications through the request context", async () => {
    let context: any;
    const handler = {
      async handle(message: unknown, ctx?: unknown) {
        context = ctx;
        (ctx as any).sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
        return { jsonrpc: "2.0" as const, id: (message as JsonRpcRequest).id, result: { ok: true } };
      },
    };
    const seen: unknown[] = [];
    const transport = new InMemoryClientTransport(handler, { authInfo: { clientId: "c1", scopes: [] } });
    const controller = new AbortController();
    const response = await transport.request({ jsonrpc: "2.0", id: 1, method: "x" }, { signal: controller.signal, onNotification: (n) => seen.push(n) });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    expect(context.authInfo).toEqual({ clientId: "c1", scopes: [] });
    expect(context.signal).toBe(controller.signal);
    expect(seen).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }]);
  });

  it("rejects after close and when the handler gives no response", async () => {
    const transport = new InMemoryClientTransport({ handle: async () => undefined });
    await expect(transport.request({ jsonrpc: "2.0", id: 1, method: "x" })).rejects.toThrow(/no response/);
    await transport.close();
    await expect(transport.request({ jsonrpc: "2.0", id: 2, method: "x" })).rejects.toThrow(/closed/);
    expect(() => new InMemoryClientTransport({} as never)).toThrow(TypeError);
  });
});
