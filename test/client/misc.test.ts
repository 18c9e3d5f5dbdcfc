import { describe, expect, it } from "vitest";
import { type JsonRpcNotification, type JsonRpcRequest, Client, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import type { RequestContext } from "../../runtime/transport/types.js";
import { fakeServer, text } from "./fake-server.js";

describe("client odds and ends", () => {
  it("delivers notifications the server sends while answering", async () => {
    const inner = fakeServer(() => text("ok"));
    const server = {
      async handle(message: unknown, context?: RequestContext) {
        if ((message as JsonRpcRequest).method === "tools/call") {
          await context?.sendNotification?.({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 0.5 } });
        }
        return inner.handle(message);
      },
    };
    const seen: JsonRpcNotification[] = [];
    const client = await Client.connect(server, { onNotification: (notification) => seen.push(notification) });
    await client.callTool("t", {}, { meta: { progressToken: 1 } });
    expect(seen).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 0.5 } }]);
  });

  it("sends completion/complete and server/discover with the envelope", async () => {
    const server = fakeServer((params, request) =>
      request.method === "completion/complete"
        ? { resultType: "complete", completion: { values: [`${(params.argument as { value: string }).value}-1`] } }
        : { error: { code: -32601, message: "Method not found" } },
    );
    const client = await Client.connect(server);
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "x" } });
    expect(completion.completion.values).toEqual(["x-1"]);
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toEqual([MODERN_PROTOCOL_VERSION]);
    expect(server.received.filter((r) => r.method === "server/discover")).toHaveLength(2);
  });

  it("gives up connecting when the connect signal aborts", async () => {
    const server = { handle: () => new Promise<never>(() => {}) };
    const controller = new AbortController();
    const connecting = Client.connect(server, { signal: controller.signal });
    controller.abort(new Error("stop connecting"));
    await expect(connecting).rejects.toThrow("stop connecting");

    const later = new AbortController();
    const probing = Client.connect(server, { signal: later.signal });
    setTimeout(() => later.abort(new Error("stop probing")), 5);
    await expect(probing).rejects.toThrow("stop probing");
  });

  it("lets capabilities be extended beyond what the callbacks imply", async () => {
    const server = fakeServer(() => text("ok"));
    const client = await Client.connect(server, {
      onElicit: () => ({ action: "decline" }),
      capabilities: { elicitation: { form: {}, url: {} }, extensions: { "com.example/x": {} } },
    });
    await client.callTool("t");
    expect((server.calls[0]!.params!._meta as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"]).toEqual({
      elicitation: { form: {}, url: {} },
      extensions: { "com.example/x": {} },
    });
  });

  it("omits clientInfo when told to", async () => {
    const server = fakeServer(() => text("ok"));
    const client = await Client.connect(server, { clientInfo: false });
    await client.callTool("t");
    expect("io.modelcontextprotocol/clientInfo" in (server.calls[0]!.params!._meta as object)).toBe(false);
  });
});
