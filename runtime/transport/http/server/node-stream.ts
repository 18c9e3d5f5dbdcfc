/**
 * The SSE answer of the `node:http` adapter, batched per turn and paced by
 * the response's own buffer. An object of its own, apart from its
 * exchange: a listen stream open for hours keeps this and the response.
 *
 * @internal
 * @module
 */
import type { ServerResponse } from "node:http";
import { SseStream } from "./sse-stream.js";

/** Bytes waiting for the client past which a producer that awaits `drained()` waits for `drain`. */
const PACE_BYTES = 64 * 1024;

/**
 * An SSE answer on `node:http` that honours backpressure: what the client
 * has not read waits in the response's buffer (`writableLength`), a
 * producer may wait for `drain`, and a write that would leave more than
 * the bound waiting destroys the connection instead.
 */
export class NodeSseStream extends SseStream {
  readonly #response: ServerResponse;
  readonly #bound: number;
  /** One promise per stall, shared by every producer waiting on it. */
  #drain: Promise<void> | undefined = undefined;

  /**
   * What this turn wrote, sent on the next tick in one write: the headers go
   * with the first events (a 2025 POST's priming event and question, a listen
   * stream's acknowledgement), the last event with the end of the response.
   */
  #pending: string | undefined = undefined;
  /** The headers went out (with or without events). */
  #started = false;

  constructor(response: ServerResponse, bound: number, onClose: () => void) {
    super(onClose);
    this.#response = response;
    this.#bound = bound;
    process.nextTick(flushBatch, this); // the headers, alone if nothing follows this turn
  }

  /** Watches the response for the client going away (what the exchange watched before the stream opened). */
  watchClose(): void {
    this.#response.once("close", this.#onResponseClose.bind(this));
  }

  #onResponseClose(): void {
    if (!this.#response.writableFinished) this.clientGone();
  }

  write(text: string): boolean {
    const response = this.#response;
    if (response.writableEnded || response.destroyed) return false;
    const pending = this.#pending;
    const waiting = response.writableLength + (pending?.length ?? 0);
    // Bytes only when they could matter: a UTF-16 unit is 1 to 3 bytes of UTF-8.
    if (waiting > 0 && waiting + (text.length * 3 <= this.#bound - waiting ? 0 : Buffer.byteLength(text)) > this.#bound) {
      this.#pending = undefined;
      response.destroy(); // 'close' fires: the watch learns the stream is gone
      return false;
    }
    if (pending === undefined) {
      this.#pending = text;
      process.nextTick(flushBatch, this);
    } else this.#pending = pending + text;
    // A producer that writes on and on within one turn (awaiting only promises) hands its bytes over as
    // they pile up, so the response's own buffer, and drained(), pace it as before.
    if (this.#pending.length >= PACE_BYTES) this.flush();
    return true;
  }

  /** Sends what this turn wrote (or the headers, when nothing was). @internal */
  flush(): void {
    const response = this.#response;
    const pending = this.#pending;
    this.#pending = undefined;
    if (response.writableEnded || response.destroyed) return;
    // `headersSent` turns true at writeHead, before anything reached the socket: this stream keeps its own account.
    if (pending !== undefined) response.write(pending);
    else if (!this.#started) response.flushHeaders();
    this.#started = true;
  }

  drained(): Promise<void> | undefined {
    const response = this.#response;
    if (response.writableLength < PACE_BYTES || !response.writableNeedDrain || response.destroyed) return undefined;
    this.#drain ??= new Promise<void>((resolve) => {
      const done = () => {
        response.off("drain", done);
        response.off("close", done);
        this.#drain = undefined;
        resolve();
      };
      response.on("drain", done);
      response.on("close", done);
    });
    return this.#drain;
  }

  protected close(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (!this.#response.writableEnded && !this.#response.destroyed) this.#response.end(pending);
  }
}

function flushBatch(stream: NodeSseStream): void {
  stream.flush();
}
