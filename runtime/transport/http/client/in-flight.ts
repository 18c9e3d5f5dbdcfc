/**
 * What the HTTP client's `close()` and `cancel(id)` must settle: requests
 * waiting for their answer, and SSE bodies being read.
 *
 * @internal
 */
import type { JsonRpcId } from "../../../protocol/jsonrpc/messages.js";
import type { StreamReader, StreamReaders } from "./sse-read.js";

/** How to stop one request in flight, and the reader of its SSE response while it is read. */
interface Entry {
  stop: (reason: Error) => void;
  reader?: StreamReader;
}

/** The controller of a request whose caller passed a signal, and the listener tying them. */
export interface SignalLink {
  signal: AbortSignal;
  controller: AbortController;
  onAbort: () => void;
  id: JsonRpcId;
  entry: Entry;
}

/** @internal */
export class InFlight {
  /**
   * Each request in flight, by id: stopping one aborts its fetch (its caller
   * passed a signal) or fails its call at once (it has none). Requests without
   * a signal carry none to fetch at all, because fetch implementations tie
   * each signalled request to the signal with listeners and weak references
   * that cost the garbage collector dearly under load.
   */
  readonly #entries = new Map<JsonRpcId, Entry>();
  /** Readers of the SSE bodies being read: settle() cancels them, which closes their connections. */
  readonly streams = new Set<StreamReader>();

  /** `exchange`, unless settle() or cancel() fails it first (the race also absorbs its late rejection). */
  guard<T>(id: JsonRpcId, exchange: Promise<T>): Promise<T> {
    let entry!: Entry;
    const abandoned = new Promise<never>((_, reject) => {
      entry = { stop: reject };
    });
    this.#entries.set(id, entry);
    return Promise.race([exchange, abandoned]).finally(() => this.#forget(id, entry));
  }

  /**
   * A controller for one request whose caller passed a signal, aborted by
   * that signal (then `onAborted` runs too), by settle() or by cancel().
   *
   * @throws the signal's reason when it has already aborted.
   */
  link(signal: AbortSignal, id: JsonRpcId, onAborted: () => void): SignalLink {
    if (signal.aborted) throw signal.reason;
    const controller = new AbortController();
    const onAbort = () => {
      controller.abort(signal.reason);
      onAborted();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const entry: Entry = { stop: (reason) => controller.abort(reason) };
    this.#entries.set(id, entry);
    return { signal, controller, onAbort, id, entry };
  }

  /** Unties a link once its request is over. */
  unlink(link: SignalLink): void {
    this.#forget(link.id, link.entry);
    link.signal.removeEventListener("abort", link.onAbort);
  }

  #forget(id: JsonRpcId, entry: Entry): void {
    if (this.#entries.get(id) === entry) this.#entries.delete(id);
  }

  /** Where request `id`'s SSE reader registers: the transport's set, and the request's entry (so cancel() closes it). */
  readersOf(id: JsonRpcId): StreamReaders {
    return {
      add: (reader) => {
        this.streams.add(reader);
        const entry = this.#entries.get(id);
        if (entry) entry.reader = reader;
      },
      delete: (reader) => this.streams.delete(reader),
    };
  }

  /** Whether request `id` is still awaited (not answered, cancelled or abandoned). */
  has(id: JsonRpcId): boolean {
    return this.#entries.has(id);
  }

  /**
   * Stops one request: aborts its fetch or fails its call with `reason`, and closes its response stream.
   * @returns whether it was still in flight.
   */
  cancel(id: JsonRpcId, reason: Error): boolean {
    const entry = this.#entries.get(id);
    if (entry === undefined) return false;
    this.#entries.delete(id);
    entry.stop(reason);
    if (entry.reader) {
      this.streams.delete(entry.reader);
      entry.reader.cancel(reason).catch(() => {});
    }
    return true;
  }

  /** Fails every request still waiting and cancels every body being read. */
  settle(reason: Error): void {
    for (const entry of this.#entries.values()) entry.stop(reason);
    this.#entries.clear();
    for (const reader of this.streams) reader.cancel(reason).catch(() => {});
    this.streams.clear();
  }
}
