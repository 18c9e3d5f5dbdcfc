// What an agent host needs from this client, against the reference 2025-era
// server @modelcontextprotocol/server-everything, started through its
// package bin over stdio and over Streamable HTTP (`streamableHttp`, PORT):
// a cancelled or timed-out call reaches the server as notifications/cancelled
// (its SDK then never answers the request, which we watch from a tap on its
// pipes or a proxy in front of its port), a callback that fails or answers
// what does not fit throws the same error classes as against a 2026-07-28
// server, and close() is prompt.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, InputRequestFailed, InputResponseInvalid, RequestTimeout, StreamableHttpClientTransport, type ClientOptions } from "mcp-roundtrip/client";
import { freePort, repoRoot, startProcess, stopProcess, waitFor } from "./peers.js";
import { tcpProxy } from "../support/tcp-proxy.js";

const BIN = join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const TAP = join(repoRoot, "test/interop/fixtures/tap.mjs");
const LONG = "trigger-long-running-operation";

/** One way to reach server-everything, and how to read what it sent for a request id. */
interface Wire {
  name: string;
  connect(options: ClientOptions): Promise<Client>;
  /** The id of the last tools/call naming `tool` the client sent. */
  idOf(tool: string): number;
  /** Whether the server ever sent the response to `id`. */
  answered(id: number): boolean;
}

let dir: string;
let child: ChildProcess | undefined;
let proxy: Awaited<ReturnType<typeof tcpProxy>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-host-"));
  const port = await freePort();
  child = await startProcess(process.execPath, [BIN, "streamableHttp"], { PORT: String(port) }, /listening on port/);
  // Keeps the server's side of a connection the client dropped open: what it sends after is still seen.
  proxy = await tcpProxy(port, { holdServerSide: true });
}, 30_000);
afterAll(async () => {
  await proxy?.close();
  await stopProcess(child);
  rmSync(dir, { recursive: true, force: true });
});

/** Whether an SSE `data:` line is the response to `id`. */
const isResponseTo = (line: string, id: number) => {
  try {
    const message = JSON.parse(line.slice("data: ".length).trim()) as Record<string, unknown>;
    return message.id === id && ("result" in message || "error" in message);
  } catch {
    return false;
  }
};
const toolCallIds = (text: string, tool: string) =>
  [...text.matchAll(/\{[^\n]*?"method":"tools\/call"[^\n]*/g)].flatMap((m) => {
    try {
      const body = JSON.parse(m[0].replace(/[^}]*$/, "")) as { id: number; params: { name: string } };
      return body.params.name === tool ? [body.id] : [];
    } catch {
      return [];
    }
  });

const overStdio = (): Wire => {
  const name = `tap-${Math.random().toString(36).slice(2)}.log`;
  const log = () => join(dir, name);
  const lines = (prefix: string) => {
    try {
      return readFileSync(log(), "utf8")
        .split("\n")
        .filter((line) => line.startsWith(prefix))
        .map((line) => JSON.parse(line.slice(2)) as Record<string, unknown>);
    } catch {
      return [];
    }
  };
  return {
    name: "stdio",
    connect: (options) => Client.connect({ command: process.execPath, args: [TAP, process.execPath, BIN], env: { TAP_LOG: log() } }, options) as Promise<Client>,
    idOf: (tool) =>
      lines("> ")
        .filter((m) => m.method === "tools/call" && (m.params as { name?: string }).name === tool)
        .map((m) => m.id as number)
        .at(-1)!,
    answered: (id) => lines("< ").some((m) => m.id === id && ("result" in m || "error" in m)),
  };
};

const overHttp = (): Wire => {
  const sent: string[] = [];
  const recording: typeof fetch = (input, init) => {
    if (typeof init?.body === "string") sent.push(init.body);
    return fetch(input, init);
  };
  return {
    name: "Streamable HTTP",
    connect: (options) => Client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${proxy.port}/mcp`, { fetch: recording }), options) as Promise<Client>,
    idOf: (tool) => toolCallIds(sent.join("\n"), tool).at(-1)!,
    // The SSE data lines of every connection, server side, including what came after the client left.
    answered: (id) => proxy.connections.some((connection) => connection.fromServer.split("\n").some((line) => line.startsWith("data: ") && isResponseTo(line, id))),
  };
};

describe.each([{ make: overStdio }, { make: overHttp }])("against server-everything", ({ make }) => {
  const wire = make();

  it(`over ${wire.name}: an aborted call and a timed-out one reach the server as notifications/cancelled, which it honours; a call left alone is answered`, async () => {
    const host = await wire.connect({ onListRoots: () => ({ roots: [] }) });
    try {
      const controller = new AbortController();
      const aborted = host.callTool(LONG, { duration: 1.2, steps: 4 }, { signal: controller.signal, onProgress: () => controller.abort(new Error("stop")) });
      await expect(aborted).rejects.toThrow("stop");
      const abortedId = wire.idOf(LONG);

      const timedOut = await host.callTool(LONG, { duration: 1.2, steps: 4 }, { timeoutMs: 500 }).catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(RequestTimeout);
      const timedOutId = wire.idOf(LONG);
      expect(timedOutId).not.toBe(abortedId);

      const done = await host.callTool(LONG, { duration: 0.3, steps: 1 });
      expect(done.content).toEqual([{ type: "text", text: "Long running operation completed. Duration: 0.3 seconds, Steps: 1." }]);
      const answeredId = wire.idOf(LONG);
      await waitFor(() => wire.answered(answeredId), "the answer of the call left alone");
      // Past the time both cancelled operations needed: their SDK never answers a cancelled request.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect([wire.answered(abortedId), wire.answered(timedOutId)]).toEqual([false, false]);
    } finally {
      const started = Date.now();
      await host.close();
      // It never exits at the end of its input (a timer runs), so close() signals it at once instead of waiting 2 s.
      if (wire.name === "stdio") expect(Date.now() - started).toBeLessThan(1_000);
    }
  }, 20_000);

  it(`over ${wire.name}: a callback that throws, or answers what does not fit, throws InputRequestFailed / InputResponseInvalid with the server's result attached, and the server hears no advice`, async () => {
    let answer: () => unknown = () => ({ action: "accept", content: { name: "Ada", check: true, email: "not an address", integer: 7 } });
    const host = await wire.connect({ onElicit: () => answer() as never, onListRoots: () => ({ roots: [] }) });
    try {
      const invalid = await host.callTool("trigger-elicitation-request", {}).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(InputResponseInvalid);
      expect(invalid).toMatchObject({ key: undefined, method: "elicitation/create", issues: [{ path: "/content/email", message: expect.stringMatching(/email/) }] });
      expect((invalid as Error).message).toMatch(/^onElicit answer: \/content\/email .*make the callback's answer fit the request\.$/);
      const serverResult = (invalid as InputResponseInvalid).serverResult as { isError?: boolean; content: Array<{ text: string }> };
      expect(serverResult.isError).toBe(true);
      const told = serverResult.content.map((item) => item.text).join("\n");
      expect(told).toMatch(/The client could not answer elicitation\/create/);
      expect(told).not.toMatch(/onElicit|make the callback/);

      answer = () => {
        throw new Error("the form window was closed");
      };
      const failed = await host.callTool("trigger-elicitation-request", {}).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(InputRequestFailed);
      expect(failed).toMatchObject({ key: undefined, method: "elicitation/create" });
      expect((failed as Error).message).toMatch(/^The onElicit callback failed: the form window was closed\./);
      expect(((failed as InputRequestFailed).serverResult as { isError?: boolean }).isError).toBe(true);
      expect(JSON.stringify((failed as InputRequestFailed).serverResult)).not.toMatch(/form window|onElicit/);
    } finally {
      await host.close();
    }
  }, 20_000);
});
