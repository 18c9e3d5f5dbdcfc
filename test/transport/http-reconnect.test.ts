// A call's SSE response cut mid-stream (a TCP proxy destroys the connection
// after the first progress event, as a dropped network or a restarting load
// balancer would): a 2025 session resumes it with GET and Last-Event-ID and
// the call completes; a 2026-07-28 stream, which is not resumable, fails
// with ConnectionLost, retryable and naming the endpoint.
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ConnectionLost } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { watchfulServer } from "../client/fixtures/watchful-server.mjs";
import { freePort, repoRoot, startProcess, stopProcess } from "../interop/peers.js";
import { tcpProxy } from "../support/tcp-proxy.js";

/** A proxy that cuts the first connection whose server bytes carry a progress notification, and no other. */
async function cuttingProxy(port: number) {
  let cuts = 0;
  return tcpProxy(port, { cutWhen: (fromServer) => cuts === 0 && fromServer.includes("notifications/progress") && ++cuts === 1 });
}

const urlVia = (proxy: { port: number }) => `http://127.0.0.1:${proxy.port}/mcp`;

describe("a call's response stream cut mid-call, against this SDK's server", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(watchfulServer(() => {}));
  });
  afterAll(() => http.close());

  it("in a 2025 session: resumed with Last-Event-ID, and the call completes", async () => {
    const proxy = await cuttingProxy(Number(new URL(http.url).port));
    const client = await Client.connect(urlVia(proxy), { mode: "2025-11-25" });
    try {
      const progress: number[] = [];
      const result = await client.callTool("progress", { ms: 600, every: 50 }, { onProgress: (update) => void progress.push(update.progress) });
      expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/^done after \d+ steps$/) }]);
      expect(proxy.connections.filter((c) => c.cut)).toHaveLength(1);
      const resumed = proxy.connections.filter((c) => /\r\nlast-event-id: /i.test(c.fromClient));
      expect(resumed.length).toBeGreaterThanOrEqual(1);
      // Progress before and after the cut reached the call's listener, none twice.
      expect(progress.length).toBeGreaterThan(1);
      expect(new Set(progress).size).toBe(progress.length);
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it("under 2026-07-28 (no resumable streams): ConnectionLost, retryable, naming the endpoint", async () => {
    const proxy = await cuttingProxy(Number(new URL(http.url).port));
    const client = await Client.connect(urlVia(proxy));
    try {
      expect(client.protocolVersion).toBe("2026-07-28");
      const error = await client.callTool("progress", { ms: 600, every: 50 }, { onProgress: () => {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionLost);
      expect(error).toMatchObject({ name: "ConnectionLost", retryable: true, method: "tools/call" });
      expect((error as Error).message).toMatch(
        new RegExp(
          `^tools/call: the connection to ${urlVia(proxy).replace(/[/.]/g, "\\$&")} broke before the answer came \\(.+\\), and the server offered no event id`,
        ),
      );
      // The same call again goes through (the proxy cuts only once).
      const again = await client.callTool("progress", { ms: 200, every: 50 }, { onProgress: () => {} });
      expect(again.content).toEqual([{ type: "text", text: expect.stringMatching(/^done after/) }]);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});

describe("a call's response stream cut mid-call, against server-everything (its event store offers ids)", () => {
  let child: ChildProcess | undefined;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    child = await startProcess(
      process.execPath,
      [join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "streamableHttp"],
      { PORT: String(port) },
      /listening on port/,
    );
  }, 30_000);
  afterAll(() => stopProcess(child));

  it("resumes with Last-Event-ID, and the call completes", async () => {
    const proxy = await cuttingProxy(port);
    const client = await Client.connect(urlVia(proxy), { onListRoots: () => ({ roots: [] }) });
    try {
      const result = await client.callTool("trigger-long-running-operation", { duration: 0.6, steps: 3 }, { onProgress: () => {} });
      expect(result.content).toEqual([{ type: "text", text: "Long running operation completed. Duration: 0.6 seconds, Steps: 3." }]);
      expect(proxy.connections.filter((c) => c.cut)).toHaveLength(1);
      expect(proxy.connections.some((c) => /\r\nlast-event-id: /i.test(c.fromClient))).toBe(true);
    } finally {
      await client.close();
      await proxy.close();
    }
  }, 20_000);
});
