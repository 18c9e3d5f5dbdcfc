// examples/official-sdk/, which docs/official-sdk.md describes (its code blocks
// are compiled by the doc tests, test/docs/): the same server before (their
// HMAC codec) and after (ours), finishing a round, and what the client holds.
import { createServer } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { Client, isInputRequired } from "mcp-roundtrip/client";
import type { SealedRequestStateCodec } from "mcp-roundtrip/ext/official";
import { afterHandler, beforeHandler, behindProxy, rotationPhases } from "../../examples/official-sdk/sealed-server.js";
import { bridge } from "../interop/peers.js";

const KEY = "official-example-key-0123456789abcdef";
const NEXT = "official-example-key-next-0123456789abc";

/** Serves `handler` on 127.0.0.1, runs `body` with its URL, and closes it. */
async function serving<T>(handler: { fetch(request: Request): Promise<Response>; close(): Promise<void> }, body: (url: string) => Promise<T>): Promise<T> {
  const server = createServer(bridge(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await body(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`);
  } finally {
    await handler.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/** The first round's token, and the finished call's text. */
async function round(url: string): Promise<{ token: string; text: string }> {
  const client = await Client.connect(url, { onElicit: () => ({ action: "accept", content: { city: "Porto" } }) });
  try {
    const first = await client.session.callTool("forecast", { text: "Tomorrow" }, { allowInputRequired: true });
    if (!isInputRequired(first)) throw new Error("expected a round");
    const result = await client.callTool("forecast", { text: "Tomorrow" });
    return { token: first.requestState!, text: (result.content[0] as { text: string }).text };
  } finally {
    await client.close();
  }
}

const decoded = (token: string) =>
  token
    .split(".")
    .map((part) => Buffer.from(part, "base64url").toString("latin1"))
    .join(".");

describe("examples/official-sdk/sealed-server.ts", () => {
  it("before: their codec finishes the round, and the client can read the payload", async () => {
    const { token, text } = await serving(beforeHandler(KEY), round);
    expect(text).toBe("Tomorrow in Porto: sunny");
    expect(decoded(token)).toContain('"text":"Tomorrow"');
  });

  it("after: ours finishes the same round, and the client reads nothing", async () => {
    const { token, text } = await serving(afterHandler([KEY]), round);
    expect(text).toBe("Tomorrow in Porto: sunny");
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(decoded(token)).not.toContain("Tomorrow");
  });

  it("rotation: a token of each phase opens in the next", async () => {
    const [learn, mint, forget] = rotationPhases(KEY, NEXT);
    const binding = { method: "tools/call", target: "forecast", arguments: {}, audience: "weather" };
    expect(await mint!.verify(await learn!.mint({ ...binding, state: "1" }), binding)).toBe("1");
    expect(await forget!.verify(await mint!.mint({ ...binding, state: "2" }), binding)).toBe("2");
  });

  it("behind a proxy: the header's user is the principal", async () => {
    const codec = behindProxy(KEY) as SealedRequestStateCodec<{ text: string }>;
    const ctx = async (user: string) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "forecast", arguments: {} } });
      const req = new Request("http://localhost/mcp", { method: "POST", headers: { "content-type": "application/json", "x-authenticated-user": user }, body });
      await codec.capture(async () => new Response())(req);
      return { mcpReq: { id: 1, method: "tools/call" }, http: { req } };
    };
    const token = await codec.mint({ text: "x" }, await ctx("alice"));
    expect(await codec.verify(token, await ctx("alice"))).toEqual({ text: "x" });
    // No logger given: the real reason goes to console.warn, the default.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await expect(codec.verify(token, await ctx("bob"))).rejects.toThrow("Invalid or expired requestState");
      expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([expect.stringContaining("(principal_mismatch)")]);
    } finally {
      warn.mockRestore();
    }
  });
});
