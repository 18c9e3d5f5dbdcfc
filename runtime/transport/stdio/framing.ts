/**
 * Newline-delimited JSON-RPC framing shared by both ends of the stdio
 * transport.
 *
 * @internal
 */
import type { Readable } from "node:stream";
import type { JsonRpcId, JsonRpcResponse } from "../../jsonrpc/messages.js";

/** Longest line accepted from the peer, in bytes: a guard against unbounded buffering. Default 4 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Splits a byte stream into lines and hands each complete one to `onLine`.
 * A line longer than `maxBytes` is dropped whole and reported to `onOversize`.
 */
export function lineReader(stream: Readable, maxBytes: number, onLine: (line: string) => void, onOversize: () => void) {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;
  stream.on("data", (chunk: Buffer | string) => {
    let buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (;;) {
      const newline = buffer.indexOf(0x0a);
      if (newline === -1) {
        if (!discarding) {
          pending.push(buffer);
          pendingBytes += buffer.length;
          if (pendingBytes > maxBytes) {
            discarding = true;
            pending = [];
            pendingBytes = 0;
            onOversize();
          }
        }
        return;
      }
      const head = buffer.subarray(0, newline);
      buffer = buffer.subarray(newline + 1);
      if (discarding) {
        discarding = false;
        continue;
      }
      const line = pending.length === 0 ? head : Buffer.concat([...pending, head]);
      pending = [];
      pendingBytes = 0;
      if (line.length > maxBytes) {
        onOversize();
        continue;
      }
      const text = line.toString("utf8").replace(/\r$/, "");
      if (text.trim() !== "") onLine(text);
    }
  });
}

export function errorResponse(id: JsonRpcId | undefined, code: number, message: string): JsonRpcResponse {
  return id === undefined ? { jsonrpc: "2.0", error: { code, message } } : { jsonrpc: "2.0", id, error: { code, message } };
}
