// serveHttp's limits as a client meets them on a real socket: a body over the limit is answered
// 413 (not a reset), slow or oversized headers get 408 / 431, connections are capped, and
// failures the client is not told about still reach stderr by default.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from "mcp-roundtrip/node";
import { mcpHeaders } from "../transport/helpers.js";

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

async function serve(options: ServeHttpOptions = {}) {
  const mcp = new McpServer({ name: "limits", version: "1.0.0" });
  mcp.tool("echo", { inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "ok" }] }));
  const handle = await serveHttp(mcp, { port: 0, ...options });
  handles.push(handle);
  return handle;
}

/**
 * POSTs `total` bytes in 64 KiB writes, as a client that does not wait for
 * the status would, and reports the status and any socket error seen while
 * uploading, even one after the response arrived (a reset mid-upload).
 */
function upload(url: string, total: number, declareLength: boolean): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...mcpHeaders("tools/list") };
    if (declareLength) headers["content-length"] = total;
    const request = httpRequest(url, { method: "POST", headers, agent: false });
    let status: number | undefined;
    let error: string | undefined;
    let pending = 2; // the response read, and the upload finished or failed
    const done = () => {
      if (--pending === 0) resolve(error === undefined ? { status } : { status, error });
    };
    request.on("response", (response) => {
      status = response.statusCode;
      response.resume();
      response.on("end", done);
      response.on("error", () => {});
    });
    request.on("error", (failure) => {
      error ??= (failure as NodeJS.ErrnoException).code ?? failure.message;
      if (status === undefined) pending--; // no response will come
      done();
    });
    request.on("finish", done);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      request.end();
    };
    pump();
  });
}

/** Sends raw bytes and resolves with the first status line the server writes back (or how the socket ended). */
function raw(port: number, bytes: string, waitMs = 0): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (data) => (received += data.toString()));
    socket.on("close", () => resolve(received.split("\r\n")[0] || "(closed without a response)"));
    socket.on("error", () => {});
    socket.write(bytes);
    if (waitMs === 0) return;
    setTimeout(() => socket.end(), waitMs);
  });
}

describe("a body over maxBodyBytes", () => {
  it.each([true, false])("is answered 413 that the uploading client reads (content-length declared: %s)", async (declared) => {
    const handle = await serve({ maxBodyBytes: 1024 });
    const outcomes = [];
    for (let i = 0; i < 12; i++) outcomes.push(await upload(handle.url, 8 * 1024 * 1024, declared));
    expect(outcomes).toEqual(Array.from({ length: 12 }, () => ({ status: 413 })));
  });
});

describe("slow and oversized requests", () => {
  it("headers that take longer than headersTimeoutMs get 408", async () => {
    const handle = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const status = await raw(handle.port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    expect(status).toBe("HTTP/1.1 408 Request Timeout");
  });

  it("headers larger than maxHeaderBytes get 431", async () => {
    const handle = await serve({ maxHeaderBytes: 2048 });
    const status = await raw(handle.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(4096)}\r\n\r\n`);
    expect(status).toBe("HTTP/1.1 431 Request Header Fields Too Large");
  });

  it("garbage gets 400", async () => {
    const handle = await serve();
    expect(await raw(handle.port, "NOT HTTP AT ALL\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request");
  });

  it("connections beyond maxConnections are refused; the ones within keep working", async () => {
    const handle = await serve({ maxConnections: 2 });
    const held = [connect(handle.port, "127.0.0.1"), connect(handle.port, "127.0.0.1")];
    await Promise.all(held.map((socket) => new Promise((resolve) => socket.once("connect", resolve))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await raw(handle.port, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(third).toBe("(closed without a response)");
    for (const socket of held) socket.destroy();
  });

  it("the limits are checked when the server starts", async () => {
    await expect(serve({ requestTimeoutMs: 0 })).rejects.toThrow(/requestTimeoutMs must be a positive integer/);
    await expect(serve({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 })).rejects.toThrow(/must not exceed requestTimeoutMs/);
  });
});

describe("failures the client is not told about", () => {
  it("reach stderr by default, and onError when given", async () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = (token: string) => {
      throw new Error(`verifier down (token ${token.length} chars)`);
    };
    const byDefault = await serve({ verifyToken: failing });
    const response = await fetch(byDefault.url, { method: "POST", headers: { ...mcpHeaders("tools/list"), authorization: "Bearer abc" }, body: "{}" });
    expect(response.status).toBe(401);
    expect(printed).toHaveBeenCalledWith("[mcp-roundtrip http]", expect.objectContaining({ message: "verifier down (token 3 chars)" }));
    const seen: unknown[] = [];
    const custom = await serve({ verifyToken: failing, onError: (error) => void seen.push(error) });
    printed.mockClear();
    await fetch(custom.url, { method: "POST", headers: { ...mcpHeaders("tools/list"), authorization: "Bearer abc" }, body: "{}" });
    expect(seen).toHaveLength(1);
    expect(printed).not.toHaveBeenCalled();
  });
});
