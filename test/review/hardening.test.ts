// The defects an outside attack run found, each reproduced as the attack sent it, over the wire it
// used: Mcp-Param-* headers, request ids, deep nesting.
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer, elicit, type ServerLogger } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle, serveStdio } from "mcp-roundtrip/node";
import { StreamableHttpClientTransport, StdioClientTransport } from "mcp-roundtrip/client";
import { META, mcpHeaders } from "../transport/helpers.js";
import { peekRequestId } from "../../runtime/transport/stdio/peek-id.js";

const quiet: ServerLogger = { warn() {}, error() {} };

function target() {
  const mcp = new McpServer({ name: "hardening", version: "1.0.0" }, { logger: quiet });
  mcp.tool(
    "route",
    {
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" }, note: { type: "string" } },
        required: ["region"],
      },
    },
    (args) => ({ content: [{ type: "text", text: `ran in ${String(args.region)}` }] }),
  );
  mcp.tool("echo", { inputSchema: { type: "object" } }, (args) => ({ content: [{ type: "text", text: JSON.stringify(args).length.toString() }] }));
  mcp.tool(
    "ask",
    { inputSchema: { type: "object" }, needs: (need) => need.add("ok", () => elicit({ message: "ok?", schema: { type: "object", properties: {} } })) },
    () => ({ content: [{ type: "text", text: "asked" }] }),
  );
  return mcp;
}

let http: HttpServerHandle;
beforeAll(async () => {
  http = await serveHttp(target());
});
afterAll(() => http.close());

const post = (body: string | object, headers: Record<string, string>) =>
  fetch(http.url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });

const callRoute = (args: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "route", arguments: args, _meta: META },
});

describe("1. Mcp-Param-* headers are checked against the body", () => {
  it("a matching header runs the tool", async () => {
    const response = await post(callRoute({ region: "eu" }), { ...mcpHeaders("tools/call", "route"), "mcp-param-region": "eu" });
    expect(response.status).toBe(200);
    expect((await response.json()).result.content[0].text).toBe("ran in eu");
  });

  it.each([
    ["a header contradicting the body", { "mcp-param-region": "us" }, "does not match"],
    ["a missing header for an x-mcp-header parameter", {}, "is required"],
    ["a non-ASCII header value", { "mcp-param-region": "é" }, "invalid characters"],
    ["broken Base64", { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }, "Mcp-Param-Region"],
  ])("%s gets 400 / -32020 and the tool does not run", async (_label, extra, says) => {
    const headers: Record<string, string> = { ...mcpHeaders("tools/call", "route"), ...(extra as Record<string, string>) };
    // fetch refuses a non-ASCII header value itself; send its UTF-8 bytes as a raw client would.
    if ((extra as Record<string, string>)["mcp-param-region"] === "é") headers["mcp-param-region"] = Buffer.from("é").toString("latin1");
    const response = await post(callRoute({ region: "eu" }), headers);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe(-32020);
    expect(body.error.message).toContain(says);
  });

  it("a Base64-encoded header that decodes to the body's value is accepted", async () => {
    const response = await post(callRoute({ region: "Hello" }), { ...mcpHeaders("tools/call", "route"), "mcp-param-region": `=?base64?${btoa("Hello")}?=` });
    expect(response.status).toBe(200);
  });

  it("a tool with a broken x-mcp-header annotation is refused at registration", () => {
    const mcp = new McpServer({ name: "broken-headers", version: "1" });
    expect(() =>
      mcp.tool("bad", { inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } } }, () => ({ content: [] })),
    ).toThrow(/must annotate a string, integer or boolean/);
  });
});

describe("2. request ids: only strings and safe integers", () => {
  const bodies = [
    ["1.5", '{"jsonrpc":"2.0","id":1.5,"method":"tools/list","params":{"_meta":' + JSON.stringify(META) + "}}"],
    ["1e400", '{"jsonrpc":"2.0","id":1e400,"method":"tools/list","params":{"_meta":' + JSON.stringify(META) + "}}"],
    ["2^64+1", '{"jsonrpc":"2.0","id":18446744073709551617,"method":"tools/list","params":{"_meta":' + JSON.stringify(META) + "}}"],
  ] as const;

  it.each(bodies)("id %s gets 400 / -32600 over HTTP, with no id echoed", async (_label, body) => {
    const response = await post(body, mcpHeaders("tools/list"));
    expect(response.status).toBe(400);
    const json = await response.json();
    expect(json.error.code).toBe(-32600);
    expect(json).not.toHaveProperty("id");
  });

  it.each(bodies)("id %s gets -32600 over stdio, with no id echoed", async (_label, body) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const handle = serveStdio(target(), { stdin, stdout });
    const answer = new Promise<Record<string, unknown>>((resolve) => stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))));
    stdin.write(`${body}\n`);
    const json = await answer;
    expect(json).toMatchObject({ error: { code: -32600 } });
    expect(json).not.toHaveProperty("id");
    stdin.end();
    await handle.closed;
  });

  it("the largest safe integer is still a fine id", async () => {
    const response = await post({ jsonrpc: "2.0", id: Number.MAX_SAFE_INTEGER, method: "tools/list", params: { _meta: META } }, mcpHeaders("tools/list"));
    expect((await response.json()).id).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("3. deep nesting is the caller's error, with one limit", () => {
  const nested = (depth: number) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };

  // Written as text: JSON.stringify itself overflows on the deepest of these.
  const deepText = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

  it.each([150, 2_000, 20_000, 200_000])("arguments nested %i deep get -32602 naming the limit, never -32603", async (depth) => {
    const meta = JSON.stringify({ ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } });
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"deep":${deepText(depth)}},"_meta":${meta}}}`;
    const response = await post(body, mcpHeaders("tools/call", "ask"));
    const json = await response.json();
    expect(json.error.code).toBe(-32602);
    expect(json.error.message).toContain("maxNestingDepth");
    expect(json.error.data).toEqual({ maxNestingDepth: 100 });
  });

  it("arguments within the limit still run, and a tool that asks can seal them", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask", arguments: { deep: nested(90) }, _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } },
    });
    const json = await (await post(body, mcpHeaders("tools/call", "ask"))).json();
    expect(json.result.resultType).toBe("input_required");
    expect(typeof json.result.requestState).toBe("string");
  });

  it("a 2025 session gets the same limit", async () => {
    const deepText = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    const mcp = target();
    const session = mcp.openSession({ send: () => {} });
    await session.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    const response = await session.handle(
      JSON.parse(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"deep":${deepText(5_000)}}}}`),
    );
    expect(response).toMatchObject({ error: { code: -32602, data: { maxNestingDepth: 100 } } });
  });

  it("maxNestingDepth is an option, checked at construction", () => {
    expect(() => new McpServer({ name: "depth-check", version: "1" }, { maxNestingDepth: 0 })).toThrow(/maxNestingDepth must be a positive integer/);
  });
});

describe("8. stdio: backpressure, oversized lines, encoding", () => {
  const rpc = (id: number, method = "tools/list") => `${JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: META } })}\n`;

  it("stops reading requests while stdout is not drained, and resumes once it is", async () => {
    let handled = 0;
    const counting = {
      handle: async (message: unknown) => (handled++, { jsonrpc: "2.0" as const, id: (message as { id: number }).id, result: { pad: "x".repeat(512) } }),
    };
    const stdin = new PassThrough();
    const stdout = new PassThrough({ highWaterMark: 4 * 1024 });
    const handle = serveStdio(counting, { stdin, stdout });
    const total = 30_000;
    let text = "";
    for (let i = 1; i <= total; i++) text += rpc(i);
    stdin.write(text);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Nobody reads stdout: the server must have stopped taking requests long before the last one.
    expect(handled).toBeLessThan(total / 2);
    expect(stdin.isPaused()).toBe(true);
    let lines = 0;
    stdout.on("data", (chunk: Buffer) => (lines += chunk.toString().split("\n").length - 1));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (lines >= total) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    expect(handled).toBe(total);
    stdin.end();
    await handle.closed;
  });

  it("a line over maxLineBytes gets -32600 carrying the request's id when its first bytes name one", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const handle = serveStdio(target(), { stdin, stdout, maxLineBytes: 1024 });
    const answers: Array<Record<string, unknown>> = [];
    stdout.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line) answers.push(JSON.parse(line));
    });
    stdin.write(`{"jsonrpc":"2.0","id":"big-7","method":"tools/call","params":{"name":"echo","arguments":{"blob":"${"a".repeat(5000)}"}}}\n`);
    stdin.write(`{"jsonrpc":"2.0","method":"tools/call","params":{"blob":"${"a".repeat(5000)}"}}\n`); // no id anywhere: none to give
    stdin.write(rpc(10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answers[0]).toMatchObject({ id: "big-7", error: { code: -32600, message: expect.stringContaining("maxLineBytes") } });
    expect(answers[1]).toMatchObject({ error: { code: -32600 } });
    expect(answers[1]).not.toHaveProperty("id");
    expect(answers[2]).toMatchObject({ id: 10, result: { tools: expect.any(Array) } });
    // A nested "id" is not the request's.
    expect(peekRequestId(Buffer.from('{"jsonrpc":"2.0","params":{"id":5},"method":"m"'))).toBeUndefined();
    expect(peekRequestId(Buffer.from('{"jsonrpc":"2.0","id":12,"method":"m","params":{"blob":"aaa'))).toBe(12);
    expect(peekRequestId(Buffer.from('{"id":1.5}'))).toBeUndefined();
    stdin.end();
    await handle.closed;
  });

  it("a UTF-8 BOM and invalid UTF-8 are treated as over HTTP: the BOM is dropped, invalid bytes are a parse error", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const handle = serveStdio(target(), { stdin, stdout });
    const answers: Array<Record<string, unknown>> = [];
    stdout.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line) answers.push(JSON.parse(line));
    });
    stdin.write(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rpc(1))]));
    stdin.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The parse error is written at once, the answer when the handler has run: find each by its shape.
    expect(answers.find((answer) => answer.id === 1)).toMatchObject({ result: {} });
    expect(answers.find((answer) => !("id" in answer))).toMatchObject({ error: { code: -32700, message: expect.stringContaining("not valid UTF-8 JSON") } });
    stdin.end();
    await handle.closed;
    // And over HTTP, the same two bodies get the same two outcomes.
    const bom = await fetch(http.url, {
      method: "POST",
      headers: mcpHeaders("tools/list"),
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rpc(1))]),
    });
    expect(bom.status).toBe(200);
    const invalid = await fetch(http.url, {
      method: "POST",
      headers: mcpHeaders("tools/list"),
      body: Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]),
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.code).toBe(-32700);
  });
});

describe("8, 9, 10. the client side of the same limits", () => {
  const fixture = new URL("../transport/fixtures/line-server.mjs", import.meta.url).pathname;

  it("9. a spawned server gets a short allow-list of this process's environment, plus what the caller passes", async () => {
    process.env.MCP_TEST_SECRET_API_KEY = "sk-live-do-not-leak";
    try {
      const transport = await StdioClientTransport.spawn({ command: process.execPath, args: [fixture], env: { GIVEN: "yes" }, stderr: "ignore" });
      const response = (await transport.request({ jsonrpc: "2.0", id: 1, method: "env" })) as unknown as { result: { env: Record<string, string> } };
      await transport.close();
      expect(response.result.env.MCP_TEST_SECRET_API_KEY).toBeUndefined();
      expect(response.result.env.GIVEN).toBe("yes");
      expect(response.result.env.PATH).toBe(process.env.PATH);
      const everything = await StdioClientTransport.spawn({ command: process.execPath, args: [fixture], inheritEnv: true, stderr: "ignore" });
      const all = (await everything.request({ jsonrpc: "2.0", id: 1, method: "env" })) as unknown as { result: { env: Record<string, string> } };
      await everything.close();
      expect(all.result.env.MCP_TEST_SECRET_API_KEY).toBe("sk-live-do-not-leak");
    } finally {
      delete process.env.MCP_TEST_SECRET_API_KEY;
    }
  });

  it("8. a reply over maxLineBytes fails its request with an error saying so, and the transport keeps working", async () => {
    const transport = await StdioClientTransport.spawn({ command: process.execPath, args: [fixture], maxLineBytes: 4096, stderr: "ignore" });
    try {
      await expect(transport.request({ jsonrpc: "2.0", id: 1, method: "huge", params: { bytes: 100_000 } })).rejects.toThrow(/longer than 4096 bytes.*maxLineBytes/);
      expect(await transport.request({ jsonrpc: "2.0", id: 2, method: "huge", params: { bytes: 100 } })).toHaveProperty("result.blob");
    } finally {
      await transport.close();
    }
  });

  it("10. the HTTP client refuses an answer or an SSE event over maxResponseBytes", async () => {
    const { createServer } = await import("node:http");
    const big = "x".repeat(200_000);
    const peer = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        const answer = JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", blob: big } });
        if (method === "sized") {
          response.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(answer)) });
          response.end(answer);
        } else if (method === "chunked") {
          response.writeHead(200, { "content-type": "application/json" });
          for (let i = 0; i < answer.length; i += 10_000) response.write(answer.slice(i, i + 10_000));
          response.end();
        } else {
          response.writeHead(200, { "content-type": "text/event-stream" });
          response.end(`event: message\ndata: ${answer}\n\n`);
        }
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(peer.address() as { port: number }).port}/mcp`;
    try {
      const limited = new StreamableHttpClientTransport(url, { maxResponseBytes: 100_000 });
      for (const method of ["sized", "chunked", "streamed"]) {
        await expect(limited.request({ jsonrpc: "2.0", id: 1, method, params: { _meta: META } })).rejects.toThrow(/maxResponseBytes/);
      }
      const roomy = new StreamableHttpClientTransport(url);
      expect(await roomy.request({ jsonrpc: "2.0", id: 2, method: "chunked", params: { _meta: META } })).toHaveProperty("result.blob");
      await Promise.all([limited.close(), roomy.close()]);
    } finally {
      await new Promise((resolve) => peer.close(resolve));
    }
  });
});
