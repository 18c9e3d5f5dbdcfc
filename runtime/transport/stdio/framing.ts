/**
 * Newline-delimited JSON-RPC framing shared by both ends of the stdio
 * transport.
 *
 * @internal
 */
import type { Readable } from "node:stream";
import { decodeJson, type Decoded } from "../../protocol/message.js";

/**
 * Splits a byte stream into lines and hands each complete, non-blank one to
 * `onMessage` decoded exactly as the HTTP transport decodes a body (strict
 * UTF-8, a leading BOM dropped, then JSON): a line that is not a message
 * arrives as `{ ok: false }`. A line longer than `maxBytes` is dropped whole
 * and reported to `onOversize` with its first bytes, which may name the
 * request's id.
 */
export function messageReader(stream: Readable, maxBytes: number, onMessage: (line: Decoded) => void, onOversize: (head: Uint8Array) => void): void {
  splitLines(stream, maxBytes, (line) => onMessage(decodeJson(line)), onOversize);
}

/**
 * Splits a byte stream into lines and hands each complete, non-blank one to
 * `onLine` as UTF-8 text. A line longer than `maxBytes` is dropped whole and
 * reported to `onOversize`.
 */
export function lineReader(stream: Readable, maxBytes: number, onLine: (line: string) => void, onOversize: (head: Uint8Array) => void): void {
  splitLines(stream, maxBytes, (line) => onLine(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString("utf8")), onOversize);
}

function splitLines(stream: Readable, maxBytes: number, onLine: (line: Uint8Array) => void, onOversize: (head: Uint8Array) => void): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;
  /** What arrived after the consumer paused the stream mid-chunk, kept until it resumes. */
  let held: Buffer | undefined;
  const take = (chunk: Buffer): void => {
    let buffer = chunk;
    for (;;) {
      // A consumer that paused the stream (backpressure) gets no more lines, even from this chunk.
      if (stream.isPaused()) {
        held = held === undefined ? buffer : Buffer.concat([held, buffer]);
        return;
      }
      const newline = buffer.indexOf(0x0a);
      if (newline === -1) {
        if (!discarding) {
          pending.push(buffer);
          pendingBytes += buffer.length;
          if (pendingBytes > maxBytes) {
            discarding = true;
            const head = pending[0]!;
            pending = [];
            pendingBytes = 0;
            onOversize(head);
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
      let line = pending.length === 0 ? head : Buffer.concat([...pending, head]);
      pending = [];
      pendingBytes = 0;
      if (line.length > maxBytes) {
        onOversize(line);
        continue;
      }
      if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
      if (isBlank(line)) continue;
      onLine(line);
    }
  };
  stream.on("data", (chunk: Buffer | string) => take(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  stream.on("resume", () => {
    const rest = held;
    held = undefined;
    if (rest !== undefined) take(rest);
  });
}

/** True for a line of nothing but JSON whitespace (a keep-alive newline). */
function isBlank(line: Uint8Array): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}
