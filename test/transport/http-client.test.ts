import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { HttpTransportError, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import type { JsonRpcNotification } from "mcp-roundtrip/server";
import { decodeHeaderValue, encodeHeaderValue } from "../../runtime/protocol/headers.js";
import { paramHeadersOf } from "../../runtime/protocol/param-headers.js";
import { paramHeaderMismatch } from "../../runtime/protocol/param-header-check.js";
import { META, PROTOCOL_VERSION, rpc, stubServer } from "./helpers.js";

/** A scripted HTTP peer: records each request and answers with what `reply` returns. */
async function scriptedServer(
  reply: (body: Record<string, unknown>, request: IncomingMessage) => { status?: number; headers?: Record<string, string>; body: string },
) {
  const requests: Array<{ headers: IncomingMessage["headers"]; body: Record<string, unknown> }> = [];
  const server: Server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      const body = JSON.parse(text);
      requests.push({ headers: request.headers, body });
      const answer = reply(body, request);
      response.writeHead(answer.status ?? 200, answer.headers ?? { "content-type": "application/json" });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("StreamableHttpClientTransport against this SDK's HTTP server", () => {
  let server: HttpServerHandle;
  /** Releases the handlers parked in "slow/hold" (each resolves with its own answer). */
  const held: Array<() => void> = [];
  /** Abort reasons the server saw on parked handlers' signals. */
  const serverAborts: string[] = [];
  const { handler, seen } = stubServer({
    "slow/hold": async (_params, context) => {
      const signal = context.signal!;
      await new Promise<void>((resolve) => {
        held.push(resolve);
        signal.addEventListener("abort", () => {
          serverAborts.push(String((signal.reason as Error)?.message ?? signal.reason));
          resolve();
        });
      });
      return { resultType: "complete", released: true };
    },
    "slow/stream": async (_params, context) => {
      const signal = context.signal!;
      await context.sendNotification!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
      await new Promise<void>((resolve) => {
        held.push(resolve);
        signal.addEventListener("abort", () => {
          serverAborts.push("stream closed");
          resolve();
        });
      });
      return { resultType: "complete", streamed: true };
    },
    "slow/progress": async (params, context) => {
      const token = (params._meta as Record<string, unknown>).progressToken;
      for (const progress of [1, 2, 3]) {
        await context.sendNotification!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress } });
      }
      return { resultType: "complete", ok: true };
    },
  });
  beforeAll(async () => {
    server = await serveHttp(handler, {
      verifyToken: (token) => (token.startsWith("good") ? { clientId: "c", subject: token, scopes: [] } : null),
    });
  });
  afterAll(() => server.close());

  it("round-trips a request with the required headers and a bearer token from a provider", async () => {
    let calls = 0;
    const transport = new StreamableHttpClientTransport(server.url, { token: () => `good-${++calls}` });
    const response = await transport.request(rpc("tools/call", { name: "echo" }) as never);
    expect(response).toMatchObject({ id: 1, result: { content: [{ text: "called echo" }] } });
    const headers = seen.at(-1)!.context!.headers!;
    expect(headers.get("mcp-method")).toBe("tools/call");
    expect(headers.get("mcp-name")).toBe("echo");
    expect(headers.get("mcp-protocol-version")).toBe(PROTOCOL_VERSION);
    expect(seen.at(-1)!.context!.authInfo!.subject).toBe("good-1");
    await transport.request(rpc("tools/call", { name: "echo" }, 2) as never);
    expect(seen.at(-1)!.context!.authInfo!.subject).toBe("good-2");
    await transport.close();
  });

  it("reads an SSE response and hands notifications to the caller", async () => {
    const transport = new StreamableHttpClientTransport(server.url, { token: "good" });
    const notes: JsonRpcNotification[] = [];
    const response = await transport.request(
      { jsonrpc: "2.0", id: "s", method: "slow/progress", params: { _meta: { ...META, progressToken: 9 } } },
      { onNotification: (n) => notes.push(n) },
    );
    expect(response).toEqual({ jsonrpc: "2.0", id: "s", result: { resultType: "complete", ok: true } });
    expect(notes.map((n) => n.params?.progress)).toEqual([1, 2, 3]);
  });

  it("returns protocol errors from 4xx responses as JSON-RPC errors", async () => {
    const transport = new StreamableHttpClientTransport(server.url, { token: "good" });
    const response = await transport.request({ jsonrpc: "2.0", id: 5, method: "nope", params: { _meta: META } });
    expect(response).toMatchObject({ id: 5, error: { code: -32601 } });
  });

  it("throws HttpTransportError with the challenge on 401", async () => {
    const transport = new StreamableHttpClientTransport(server.url);
    const error = await transport.request(rpc("tools/list") as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpTransportError);
    expect((error as HttpTransportError).status).toBe(401);
    expect((error as HttpTransportError).wwwAuthenticate).toMatch(/^Bearer/);
  });

  it("rejects with the abort reason when the signal fires", async () => {
    const transport = new StreamableHttpClientTransport(server.url, { token: "good" });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(transport.request(rpc("tools/list") as never, { signal: controller.signal })).rejects.toThrow("stop");
  });

  it("close() settles a request still waiting for its answer at once, and the server finishes it unharmed", async () => {
    const transport = new StreamableHttpClientTransport(server.url, { token: "good" });
    const before = held.length;
    const pending = transport.request({ jsonrpc: "2.0", id: "h1", method: "slow/hold", params: { _meta: META } });
    await vi.waitFor(() => expect(held.length).toBe(before + 1));
    await transport.close();
    await expect(pending).rejects.toThrow("The HTTP transport was closed.");
    await expect(transport.request(rpc("tools/list") as never)).rejects.toThrow(/closed; connect again/);
    // The abandoned exchange completes on the wire once the handler answers; the server keeps serving.
    held[before]!();
    const other = new StreamableHttpClientTransport(server.url, { token: "good" });
    await expect(other.request(rpc("tools/list", {}, 2) as never)).resolves.toMatchObject({ id: 2 });
  });

  it("close() aborts on the wire a request whose caller passed a signal", async () => {
    const transport = new StreamableHttpClientTransport(server.url, { token: "good" });
    const before = held.length;
    const aborts = serverAborts.length;
    const pending = transport.request({ jsonrpc: "2.0", id: "h2", method: "slow/hold", params: { _meta: META } }, { signal: new AbortController().signal });
    await vi.waitFor(() => expect(held.length).toBe(before + 1));
    await transport.close();
    await expect(pending).rejects.toThrow(/closed/);
    await vi.waitFor(() => expect(serverAborts.length).toBe(aborts + 1));
  });

  it("close() cancels an SSE response being read, which closes its connection", async () => {
    const transport = new StreamableHttpClientTransport(server.url, { token: "good" });
    const before = held.length;
    const aborts = serverAborts.length;
    const notes: JsonRpcNotification[] = [];
    const pending = transport.request(
      { jsonrpc: "2.0", id: "st", method: "slow/stream", params: { _meta: { ...META, progressToken: 1 } } },
      { onNotification: (n) => notes.push(n) },
    );
    await vi.waitFor(() => expect(notes).toHaveLength(1));
    expect(held.length).toBe(before + 1);
    await transport.close();
    await expect(pending).rejects.toThrow("The HTTP transport was closed.");
    await vi.waitFor(() => expect(serverAborts.slice(aborts)).toEqual(["stream closed"]));
  });

  it("refuses URLs that are not http(s)", () => {
    expect(() => new StreamableHttpClientTransport("ftp://example.com/mcp")).toThrow(TypeError);
    expect(() => new StreamableHttpClientTransport("not a url")).toThrow(TypeError);
  });
});

describe("x-mcp-header parameters", () => {
  const tools = [
    {
      name: "query",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          priority: { type: "integer", "x-mcp-header": "Priority" },
          verbose: { type: "boolean", "x-mcp-header": "Verbose" },
          nested: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } },
          text: { type: "string" },
        },
      },
    },
    { name: "bad_number", inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } } },
    { name: "bad_dup", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } } } },
    { name: "bad_items", inputSchema: { type: "object", properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } } } },
    { name: "bad_space", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "My Header" } } } },
    { name: "plain", inputSchema: { type: "object" } },
  ];
  let peer: Awaited<ReturnType<typeof scriptedServer>>;
  beforeAll(async () => {
    peer = await scriptedServer((body) => ({
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: body.id,
        result: body.method === "tools/list" ? { resultType: "complete", tools } : { resultType: "complete", content: [] },
      }),
    }));
  });
  afterAll(() => peer.close());

  it("drops tools with invalid annotations from tools/list, with a warning", async () => {
    const warnings: string[] = [];
    const transport = new StreamableHttpClientTransport(peer.url, { onWarning: (w) => warnings.push(w) });
    const response = await transport.request(rpc("tools/list") as never);
    expect((response as unknown as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name)).toEqual(["query", "plain"]);
    expect(warnings).toHaveLength(4);
    expect(warnings.join("\n")).toContain("bad_number");
  });

  it("mirrors annotated parameters into Mcp-Param-* headers, encoded, omitting null", async () => {
    const transport = new StreamableHttpClientTransport(peer.url, { onWarning: () => {} });
    await transport.request(rpc("tools/list") as never);
    await transport.request(
      rpc("tools/call", { name: "query", arguments: { region: "Köln ", priority: 42, verbose: null, nested: { tenant: "acme" }, text: "SELECT 1" } }, 2) as never,
    );
    const headers = peer.requests.at(-1)!.headers;
    expect(headers["mcp-param-region"]).toBe(`=?base64?${Buffer.from("Köln ").toString("base64")}?=`);
    expect(headers["mcp-param-priority"]).toBe("42");
    expect(headers["mcp-param-tenant"]).toBe("acme");
    expect(headers["mcp-param-verbose"]).toBeUndefined();
    expect(headers["mcp-param-text"]).toBeUndefined();
    expect(headers["mcp-name"]).toBe("query");
  });
});

describe("HeaderMismatch recovery", () => {
  it("lists tools and retries once when the server wants Mcp-Param headers for a tool it never listed", async () => {
    const tool = { name: "route", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } };
    const peer = await scriptedServer((body, request) => {
      if (body.method === "tools/list") return { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { tools: [tool] } }) };
      if (request.headers["mcp-param-region"] !== "eu") {
        return { status: 400, body: JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32020, message: "Header mismatch: Mcp-Param-Region" } }) };
      }
      return { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "routed" }] } }) };
    });
    try {
      const transport = new StreamableHttpClientTransport(peer.url);
      const response = await transport.request(rpc("tools/call", { name: "route", arguments: { region: "eu" } }) as never);
      expect(response).toMatchObject({ result: { content: [{ text: "routed" }] } });
      expect(peer.requests.map((r) => r.body.method)).toEqual(["tools/call", "tools/list", "tools/call"]);
      // Known now: the next call carries the header at once.
      await transport.request(rpc("tools/call", { name: "route", arguments: { region: "eu" } }, 2) as never);
      expect(peer.requests).toHaveLength(4);
    } finally {
      await peer.close();
    }
  });
});

describe("header value encoding", () => {
  it("round-trips every string through encode/decode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (value) => {
        const encoded = encodeHeaderValue(value);
        expect(/^[\x20-\x7e]*$/.test(encoded)).toBe(true);
        expect(decodeHeaderValue(encoded)).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  it("encodes the spec's examples", () => {
    expect(encodeHeaderValue("us-west1")).toBe("us-west1");
    expect(encodeHeaderValue("Hello, 世界")).toBe("=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect(encodeHeaderValue(" padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
    expect(encodeHeaderValue("=?base64?literal?=")).toBe("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  });

  it("lets a server check Mcp-Param headers against the body", () => {
    const schema = {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        n: { type: "integer", "x-mcp-header": "N" },
        on: { type: "boolean", "x-mcp-header": "On" },
      },
    };
    const check = (args: Record<string, unknown>, headers: Record<string, string>) => paramHeaderMismatch(schema, args, new Headers(headers));
    expect(check({ region: "eu", n: 42, on: true }, { "mcp-param-region": "eu", "mcp-param-n": "42.0", "mcp-param-on": "true" })).toBeUndefined();
    expect(check({ region: "Köln" }, { "mcp-param-region": encodeHeaderValue("Köln") })).toBeUndefined();
    expect(check({ region: null }, {})).toBeUndefined();
    expect(check({ region: "eu" }, {})).toMatch(/Mcp-Param-Region header is required/);
    expect(check({ region: "eu" }, { "mcp-param-region": "us" })).toMatch(/does not match/);
    expect(check({ region: "eu" }, { "mcp-param-region": "=?base64?ZXU?=" })).toMatch(/broken Base64/);
    expect(check({ region: "=?base64?ZXU=?=" }, { "mcp-param-region": "=?base64?ZXU=?=" })).toMatch(/does not match/);
    expect(check({ n: 42 }, { "mcp-param-n": "forty-two" })).toMatch(/does not match/);
  });

  it("accepts valid annotations reachable through properties only", () => {
    expect(paramHeadersOf({ type: "object", properties: { a: { type: "integer", "x-mcp-header": "A" } } })).toEqual({
      ok: true,
      headers: [{ header: "A", path: ["a"], type: "integer" }],
    });
    expect(paramHeadersOf({ type: "object", anyOf: [{ properties: { a: { type: "string", "x-mcp-header": "A" } } }] }).ok).toBe(false);
  });
});
