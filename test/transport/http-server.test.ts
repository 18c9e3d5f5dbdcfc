import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createHttpHandler, type HttpHandlerOptions } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";
import { META, mcpHeaders, rpc, stubServer } from "./helpers.js";

type Send = (init: RequestInit & { headers?: Record<string, string> }) => Promise<Response>;

interface Binding {
  name: string;
  start(handler: MessageHandler, options?: HttpHandlerOptions): Promise<{ send: Send; close(): Promise<void> }>;
}

const bindings: Binding[] = [
  {
    name: "web-standard handler",
    async start(handler, options) {
      const handle = createHttpHandler(handler, options);
      return {
        send: (init) => handle(new Request("http://127.0.0.1/mcp", { method: "POST", ...init })),
        close: async () => {},
      };
    },
  },
  {
    name: "node:http adapter",
    async start(handler, options) {
      const server = await serveHttp(handler, options);
      return {
        send: (init) => fetch(server.url, { method: "POST", ...init }),
        close: () => server.close(),
      };
    },
  },
];

describe.each(bindings)("Streamable HTTP server ($name)", (binding) => {
  const stub = stubServer({
    "tools/list": async () => ({ resultType: "complete", tools: [] }),
    "slow/progress": async (params, context) => {
      const token = (params._meta as Record<string, unknown>).progressToken;
      for (let progress = 0; progress <= 100; progress += 50) {
        await context.sendNotification!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress, total: 100 } });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { resultType: "complete", done: true };
    },
  });
  let send: Send;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ send, close } = await binding.start(stub.handler));
  });
  afterAll(() => close());

  const post = (body: unknown, headers: Record<string, string>) => send({ headers, body: typeof body === "string" ? body : JSON.stringify(body) });

  it("answers a request with a JSON response", async () => {
    const response = await post(rpc("tools/call", { name: "echo", arguments: {} }), mcpHeaders("tools/call", "echo"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const body = await response.json();
    expect(body).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [{ type: "text", text: "called echo" }] } });
  });

  it("answers a notification with 202 and no body", async () => {
    const response = await post({ jsonrpc: "2.0", method: "notifications/whatever" }, mcpHeaders("notifications/whatever"));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it.each(["GET", "DELETE", "PUT"])("refuses %s with 405", async (method) => {
    const response = await send({ method, headers: mcpHeaders("tools/list") });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("streams notifications as SSE and ends with the response", async () => {
    const message = { jsonrpc: "2.0", id: 7, method: "slow/progress", params: { _meta: { ...META, progressToken: "p1" } } };
    const response = await post(message, mcpHeaders("slow/progress"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const text = await response.text();
    const events = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)));
    expect(events.map((event) => event.params?.progress ?? "final")).toEqual([0, 50, 100, "final"]);
    expect(events.at(-1)).toEqual({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", done: true } });
  });

  describe("bad input gets a clear status and JSON-RPC error, and the server keeps serving", () => {
    const cases: Array<[string, string, Record<string, string>, number, number]> = [
      ["malformed JSON", "{not json", mcpHeaders("tools/list"), 400, -32700],
      ["a JSON array (batch)", JSON.stringify([rpc("tools/list")]), mcpHeaders("tools/list"), 400, -32600],
      ["a JSON string", JSON.stringify("hello"), mcpHeaders("tools/list"), 400, -32600],
      ["a response instead of a request", JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), mcpHeaders("tools/list"), 400, -32600],
      ["wrong content type", JSON.stringify(rpc("tools/list")), { ...mcpHeaders("tools/list"), "content-type": "text/plain" }, 415, -32600],
      ["Accept without SSE", JSON.stringify(rpc("tools/list")), { ...mcpHeaders("tools/list"), accept: "application/json" }, 406, -32600],
      ["unknown method", JSON.stringify(rpc("no/such")), mcpHeaders("no/such"), 404, -32601],
    ];
    it.each(cases)("%s", async (_label, body, headers, status, code) => {
      const response = await post(body, headers);
      expect(response.status).toBe(status);
      expect((await response.json()).error.code).toBe(code);
      const after = await post(rpc("tools/list"), mcpHeaders("tools/list"));
      expect(after.status).toBe(200);
    });
  });

  describe("mirrored headers are checked against the body (-32020, 400)", () => {
    const { "mcp-protocol-version": _v, ...noVersion } = mcpHeaders("tools/list");
    const { "mcp-method": _m, ...noMethod } = mcpHeaders("tools/list");
    const cases: Array<[string, unknown, Record<string, string>]> = [
      ["missing MCP-Protocol-Version", rpc("tools/list"), noVersion],
      ["missing Mcp-Method", rpc("tools/list"), noMethod],
      ["Mcp-Method differs from the body", rpc("tools/list"), mcpHeaders("prompts/list")],
      ["Mcp-Method differs only in case", rpc("tools/list"), mcpHeaders("Tools/List")],
      ["MCP-Protocol-Version differs from _meta", rpc("tools/list"), { ...mcpHeaders("tools/list"), "mcp-protocol-version": "2025-11-25" }],
      ["missing Mcp-Name on tools/call", rpc("tools/call", { name: "echo" }), mcpHeaders("tools/call")],
      ["Mcp-Name differs from params.name", rpc("tools/call", { name: "echo" }), mcpHeaders("tools/call", "other")],
      ["Mcp-Name differs from params.uri", rpc("resources/read", { uri: "test://a" }), mcpHeaders("resources/read", "test://b")],
      ["Mcp-Name with broken Base64", rpc("tools/call", { name: "echo" }), mcpHeaders("tools/call", "=?base64?***?=")],
    ];
    it.each(cases)("%s", async (_label, body, headers) => {
      const response = await post(body, headers);
      expect(response.status).toBe(400);
      const json = await response.json();
      expect(json.error.code).toBe(-32020);
      expect(json.id).toBe(1);
    });

    it("decodes a Base64 Mcp-Name before comparing", async () => {
      const name = "wetter-für-köln";
      const encoded = `=?base64?${Buffer.from(name).toString("base64")}?=`;
      const response = await post(rpc("tools/call", { name }), mcpHeaders("tools/call", encoded));
      expect(response.status).toBe(200);
    });
  });

  it("maps a missing _meta envelope to 400 but keeps a tool's invalid-params error in band", async () => {
    const envelope = await post({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, mcpHeaders("tools/list"));
    expect(envelope.status).toBe(400);
    expect((await envelope.json()).error.code).toBe(-32602);
    const inBand = await post(rpc("tools/call", { name: "bad_args" }), mcpHeaders("tools/call", "bad_args"));
    expect(inBand.status).toBe(200);
    expect((await inBand.json()).error.code).toBe(-32602);
  });
});

describe("Streamable HTTP server limits and security", () => {
  const servers: HttpServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  const start = async (handler: MessageHandler, options?: Parameters<typeof serveHttp>[1]) => {
    const server = await serveHttp(handler, options);
    servers.push(server);
    return server;
  };

  it("refuses an oversized body with 413, declared or streamed, and keeps serving", async () => {
    const { handler } = stubServer({ "tools/list": async () => ({ resultType: "complete", tools: [] }) });
    const server = await start(handler, { maxBodyBytes: 1024 });
    const big = JSON.stringify(rpc("tools/list", { padding: "x".repeat(4096) }));
    const declared = await fetch(server.url, { method: "POST", headers: mcpHeaders("tools/list"), body: big });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe(-32600);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await fetch(server.url, { method: "POST", headers: mcpHeaders("tools/list"), body: stream, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    const ok = await fetch(server.url, { method: "POST", headers: mcpHeaders("tools/list"), body: JSON.stringify(rpc("tools/list")) });
    expect(ok.status).toBe(200);
  });

  it("uses a 4 MiB limit by default", async () => {
    const handle = createHttpHandler(stubServer().handler);
    const body = JSON.stringify(rpc("tools/list", { padding: "x".repeat(4 * 1024 * 1024) }));
    const response = await handle(new Request("http://127.0.0.1/mcp", { method: "POST", headers: mcpHeaders("tools/list"), body }));
    expect(response.status).toBe(413);
  });

  it("refuses a foreign Origin with 403 and accepts listed and loopback ones", async () => {
    const { handler } = stubServer({ "tools/list": async () => ({ resultType: "complete", tools: [] }) });
    const defaults = createHttpHandler(handler);
    const listed = createHttpHandler(handler, { allowedOrigins: ["https://app.example"] });
    const send = (handle: (r: Request) => Promise<Response>, origin: string) =>
      handle(new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...mcpHeaders("tools/list"), origin }, body: JSON.stringify(rpc("tools/list")) }));
    expect((await send(defaults, "http://evil.example.com")).status).toBe(403);
    expect((await send(defaults, "http://localhost:5173")).status).toBe(200);
    expect((await send(listed, "https://app.example")).status).toBe(200);
    expect((await send(listed, "http://localhost:5173")).status).toBe(403);
  });

  it("refuses a non-loopback Host on a loopback server (DNS rebinding) with 403", async () => {
    const { handler } = stubServer();
    const server = await start(handler);
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(server.url, { method: "POST", headers: { ...mcpHeaders("server/discover"), host: "evil.example.com" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify(rpc("server/discover")));
    });
    expect(status).toBe(403);
    const ok = await fetch(server.url.replace("127.0.0.1", "localhost"), {
      method: "POST",
      headers: mcpHeaders("server/discover"),
      body: JSON.stringify(rpc("server/discover")),
    });
    expect(ok.status).toBe(200);
  });

  it("answers other paths with 404", async () => {
    const server = await start(stubServer().handler);
    const response = await fetch(server.url.replace("/mcp", "/other"), { method: "POST", headers: mcpHeaders("tools/list"), body: "{}" });
    expect(response.status).toBe(404);
  });

  it("cancels the handler when the client closes the response stream", async () => {
    let observed: AbortSignal | undefined;
    let finish!: () => void;
    const aborted = new Promise<void>((resolve) => (finish = resolve));
    const handler: MessageHandler = {
      async handle(message, context?: RequestContext) {
        observed = context!.signal;
        await context!.sendNotification!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 0 } });
        await new Promise<void>((resolve) => context!.signal!.addEventListener("abort", () => resolve(), { once: true }));
        finish();
        return { jsonrpc: "2.0", id: (message as { id: number }).id, result: {} };
      },
    };
    const server = await start(handler);
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      headers: mcpHeaders("tools/list"),
      body: JSON.stringify(rpc("tools/list")),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await aborted;
    expect(observed?.aborted).toBe(true);
  });

  it("cancels a handler waiting on a plain JSON request when the client disconnects", async () => {
    let finish!: (aborted: boolean) => void;
    const done = new Promise<boolean>((resolve) => (finish = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const handler: MessageHandler = {
      async handle(message, context?: RequestContext) {
        const signal = context!.signal!;
        started();
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        finish(signal.aborted);
        return { jsonrpc: "2.0", id: (message as { id: number }).id, result: {} };
      },
    };
    const server = await start(handler);
    const controller = new AbortController();
    const request = fetch(server.url, { method: "POST", headers: mcpHeaders("tools/list"), body: JSON.stringify(rpc("tools/list")), signal: controller.signal });
    await running;
    controller.abort();
    await expect(request).rejects.toThrow();
    expect(await done).toBe(true);
  });

  it("hands an already aborted signal to a handler that reads it after the client left, and keeps serving", async () => {
    let clientLeft!: () => void;
    const left = new Promise<void>((resolve) => (clientLeft = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish!: (aborted: boolean) => void;
    const done = new Promise<boolean>((resolve) => (finish = resolve));
    const errors: unknown[] = [];
    const handler: MessageHandler = {
      async handle(message, context?: RequestContext) {
        if ((message as { method: string }).method === "tools/list") {
          started();
          await left;
          // Give the server a moment to see the connection close.
          await new Promise((resolve) => setTimeout(resolve, 50));
          finish(context!.signal!.aborted);
        }
        return { jsonrpc: "2.0", id: (message as { id: number }).id, result: { ok: true } };
      },
    };
    const server = await start(handler, { onError: (error) => errors.push(error) });
    const controller = new AbortController();
    const request = fetch(server.url, { method: "POST", headers: mcpHeaders("tools/list"), body: JSON.stringify(rpc("tools/list")), signal: controller.signal });
    await running;
    controller.abort();
    await expect(request).rejects.toThrow();
    clientLeft();
    expect(await done).toBe(true);
    const next = await fetch(server.url, { method: "POST", headers: mcpHeaders("server/discover"), body: JSON.stringify(rpc("server/discover")) });
    expect(next.status).toBe(200);
    expect(errors).toEqual([]);
  });

  it("cancels the handler when the web response stream is cancelled", async () => {
    let finish!: (aborted: boolean) => void;
    const done = new Promise<boolean>((resolve) => (finish = resolve));
    const handler: MessageHandler = {
      async handle(message, context?: RequestContext) {
        await context!.sendNotification!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 0 } });
        const signal = context!.signal!;
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        finish(signal.aborted);
        return { jsonrpc: "2.0", id: (message as { id: number }).id, result: {} };
      },
    };
    const handle = createHttpHandler(handler);
    const response = await handle(
      new Request("http://127.0.0.1/mcp", { method: "POST", headers: mcpHeaders("tools/list"), body: JSON.stringify(rpc("tools/list")) }),
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(await done).toBe(true);
  });

  it("rejects invalid option values with clear errors", () => {
    const { handler } = stubServer();
    expect(() => createHttpHandler(handler, { maxBodyBytes: 0 })).toThrow(RangeError);
    expect(() => createHttpHandler({} as MessageHandler)).toThrow(TypeError);
    expect(() => createHttpHandler(handler, { allowedOrigins: 5 as unknown as string[] })).toThrow(TypeError);
  });

  it("never answers arbitrary bodies with a 5xx", async () => {
    const handle = createHttpHandler(stubServer().handler);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        async (body) => {
          const response = await handle(new Request("http://127.0.0.1/mcp", { method: "POST", headers: mcpHeaders("tools/list"), body }));
          expect(response.status).toBeLessThan(500);
          if (response.status !== 202) expect((await response.json()).jsonrpc).toBe("2.0");
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("bearer authentication", () => {
  const verifyToken = async (token: string) =>
    token === "alice-token"
      ? { clientId: "app", subject: "alice", scopes: ["mcp"] }
      : token === "expired"
        ? { clientId: "app", subject: "alice", scopes: ["mcp"], expiresAt: 1 }
        : null;
  const { handler, seen } = stubServer({ "tools/list": async () => ({ resultType: "complete", tools: [] }) });
  const handle = createHttpHandler(handler, { verifyToken, resourceMetadataUrl: "https://rs.example/.well-known/oauth-protected-resource" });
  const send = (authorization?: string) =>
    handle(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { ...mcpHeaders("tools/list"), ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(rpc("tools/list")),
      }),
    );

  it("answers 401 with a WWW-Authenticate challenge when the token is missing", async () => {
    const response = await send();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer resource_metadata="https://rs.example/.well-known/oauth-protected-resource"');
  });

  it.each(["Bearer wrong", "Bearer expired", "Basic abc", "Bearer"])("answers 401 for %s", async (authorization) => {
    const response = await send(authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(await response.text()).not.toContain("wrong");
  });

  it("passes the verified identity to the handler", async () => {
    const response = await send("Bearer alice-token");
    expect(response.status).toBe(200);
    expect(seen.at(-1)!.context!.authInfo).toEqual({ clientId: "app", subject: "alice", scopes: ["mcp"] });
  });

  it("fails closed when the verifier throws", async () => {
    const errors: unknown[] = [];
    const throwing = createHttpHandler(handler, {
      verifyToken: () => {
        throw new Error("jwks down");
      },
      onError: (e) => errors.push(e),
    });
    const response = await throwing(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { ...mcpHeaders("tools/list"), authorization: "Bearer x" },
        body: JSON.stringify(rpc("tools/list")),
      }),
    );
    expect(response.status).toBe(401);
    expect(errors).toHaveLength(1);
  });

  it("answers 403 insufficient_scope when a required scope is missing", async () => {
    const scoped = createHttpHandler(handler, { verifyToken, requiredScopes: ["admin"] });
    const response = await scoped(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { ...mcpHeaders("tools/list"), authorization: "Bearer alice-token" },
        body: JSON.stringify(rpc("tools/list")),
      }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });
});
