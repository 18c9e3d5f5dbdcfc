/**
 * The SSE answer of the web-standard handler: the source of the
 * `ReadableStream` its `Response` carries, an object of its own so that
 * nothing of the exchange (the Request's headers, its signal) stays with a
 * stream that may be open for hours.
 *
 * @internal
 * @module
 */
import { SseStream } from "./sse-stream.js";

const encoder = new TextEncoder();

/** Bytes a web SSE stream queues before a producer that awaits `drained()` waits for the reader. */
const WEB_STREAM_HIGH_WATER_MARK = 64 * 1024;
/** Every SSE stream's queuing strategy: it counts bytes. */
export const SSE_QUEUING: QueuingStrategy<Uint8Array> = { highWaterMark: WEB_STREAM_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength };

/**
 * An unpaced SSE answer (a listen stream: its deliveries never wait for the
 * reader), so the runtime makes no `pull` callback for it. Its methods are
 * the stream's source: no closures per stream.
 * @internal
 */
export class WebSseStream extends SseStream implements UnderlyingDefaultSource<Uint8Array> {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  readonly #bound: number;
  #open = true;

  constructor(onClose: () => void, maxBufferedBytes: number) {
    super(onClose);
    this.#bound = maxBufferedBytes;
  }

  /** @internal The ReadableStream's source: it hands over its controller. */
  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#controller = controller;
  }

  /** @internal The ReadableStream's source: the reader cancelled. */
  cancel(): void {
    this.closed();
    this.clientGone();
  }

  /**
   * Queues an SSE event with backpressure: the queue counts bytes
   * (`desiredSize`), and a write that would leave more than the bound
   * queued errors the stream (the runtime drops the connection) instead.
   */
  write(text: string): boolean {
    const controller = this.#controller;
    if (!this.#open || controller === undefined) return false;
    const bytes = encoder.encode(text);
    const waiting = WEB_STREAM_HIGH_WATER_MARK - (controller.desiredSize ?? 0);
    if (waiting > 0 && waiting + bytes.byteLength > this.#bound) {
      this.closed();
      controller.error(new Error(`The client read too slowly: more than ${this.#bound} bytes waited (maxStreamBufferBytes).`));
      this.clientGone();
      return false;
    }
    controller.enqueue(bytes);
    return true;
  }

  drained(): Promise<void> | undefined {
    return undefined;
  }

  protected close(): void {
    if (!this.#open) return;
    this.closed();
    this.#controller?.close();
  }

  /** True while the stream takes writes. */
  protected get open(): boolean {
    return this.#open;
  }

  /** Nothing more is written: a paced stream lets its waiting producer go. */
  protected closed(): void {
    this.#open = false;
  }

  /** Whether the reader keeps up: room left in the queue. */
  protected get hasRoom(): boolean {
    return (this.#controller?.desiredSize ?? 0) > 0;
  }
}

/**
 * A paced SSE answer (a tool call's progress, a 2025 session's stream): a
 * producer that awaits {@link drained} goes at the reader's pace, woken by
 * the runtime's `pull`.
 * @internal
 */
export class PacedWebSseStream extends WebSseStream {
  #drain: { promise: Promise<void>; resolve: () => void } | undefined = undefined;

  /** @internal The ReadableStream's source: the reader wants more, so a waiting producer may go on. */
  pull(): void {
    this.#drained();
  }

  /** `undefined` while the reader keeps up; else a promise for its next pull (or the stream's end). */
  override drained(): Promise<void> | undefined {
    if (!this.open || this.hasRoom) return undefined;
    if (this.#drain === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#drain = { promise, resolve };
    }
    return this.#drain.promise;
  }

  protected override closed(): void {
    super.closed();
    this.#drained();
  }

  #drained(): void {
    const drain = this.#drain;
    this.#drain = undefined;
    drain?.resolve();
  }
}
