// What the server-side interop tests share: the stdio command that serves the
// weather fixture from dist/, a fetch that records what a published client
// POSTs, and checks that a spawned server really went away.
import { fileURLToPath } from "node:url";
import { expect, vi } from "vitest";
import { ensureBuilt } from "../client/ensure-built.js";

/** The stdio server script; it imports the built package, so dist/ must be current. */
export const STDIO_SERVER_SCRIPT = fileURLToPath(new URL("./fixtures/serve-weather-stdio.mjs", import.meta.url));

/** Builds dist/ if a source changed since the last build (the stdio child runs the built code). */
export function ensureStdioServerBuilt(): void {
  ensureBuilt("runtime/entries/server.js");
}

/** How a user starts the weather server over stdio: this Node binary on the script. */
export const stdioServerParameters = () => ({ command: process.execPath, args: [STDIO_SERVER_SCRIPT], stderr: "pipe" as const });

/** A JSON-RPC message as a client POSTed it. */
export interface PostedMessage {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown> & { name?: string; inputResponses?: Record<string, unknown> };
  result?: Record<string, unknown>;
}

/**
 * A `fetch` for a client transport's `fetch` option that passes every call
 * to the global fetch and keeps the JSON body of each POST, so a test can
 * tell an MRTR retry (a second `tools/call` carrying `inputResponses`) from
 * a 2025 back-channel answer (a POSTed JSON-RPC response).
 */
export function recordingFetch() {
  const posted: PostedMessage[] = [];
  const fetchAndRecord = (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (init?.method === "POST" && typeof init.body === "string") posted.push(JSON.parse(init.body) as PostedMessage);
    return fetch(url, init);
  };
  return {
    fetch: fetchAndRecord,
    posted,
    /** The `tools/call` requests for `tool`, in order. */
    callsOf: (tool: string) => posted.filter((message) => message.method === "tools/call" && message.params?.name === tool),
    /** The JSON-RPC responses the client POSTed (answers to requests the server sent over a 2025 session). */
    answers: () => posted.filter((message) => message.method === undefined && message.result !== undefined),
  };
}

/** The text blocks of a tool result. */
export function textsOf(result: unknown): string[] {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((block) => (block.type === "text" ? String(block.text) : `<${block.type}>`));
}

/** Waits until process `pid` has exited (a client's close() must end the server it spawned). */
export async function expectExited(pid: number | null | undefined): Promise<void> {
  expect(pid, "the transport should report the pid of the server it spawned").toBeTypeOf("number");
  await vi.waitFor(
    () => {
      let alive = true;
      try {
        process.kill(pid!, 0);
      } catch {
        alive = false;
      }
      expect(alive, `server process ${pid} is still running after close()`).toBe(false);
    },
    { timeout: 3_000, interval: 25 },
  );
}
