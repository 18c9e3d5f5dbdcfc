/**
 * What the HTTP client's `close()` and `cancel(id)` must settle: requests
 * waiting for their answer, and SSE bodies being read.
 *
 * @internal
 */
import type { JsonRpcId } from "../../../protocol/jsonrpc/messages.js";
import type { StreamReader, StreamReaders } from "./sse-read.js";

/** The controller of a request whose caller passed a signal, and the listener tying them. */
export interface SignalLink {
  signal: AbortSignal;
  controller: AbortController;
  onAbort: () => void;
  id: JsonRpcId;
}

/** @internal */
export class InFlight {
  /** Controllers of requests whose caller passed a signal, by request id: settle() and cancel() abort them on the wire. */
  readonly #controllers = new Map<JsonRpcId, AbortController>();
  /**
   * Rejecters of requests sent without a signal, by request id: settle() and cancel() fail their calls at once.
   * Those requests carry no signal to fetch at all, because fetch
   * implementations tie each signalled request to the signal with listeners
   * and weak references that cost the garbage collector dearly under load.
   */
  readonly #abandon = new Map<JsonRpcId, (reason: Error) => void>();
  /** Readers of the SSE bodies being read: settle() cancels them, which closes their connections. */
  readonly streams = new Set<StreamReader>();
  /** The reader of each request's SSE response, while it is read: cancel() closes it. */
  readonly #readers = new Map<JsonRpcId, StreamReader>();

  /** `exchange`, unless settle() or cancel() fails it first (the race also absorbs its late rejection). */
  guard<T>(id: JsonRpcId, exchange: Promise<T>): Promise<T> {
    let abandon!: (reason: Error) => void;
    const abandoned = new Promise<never>((_, reject) => {
      abandon = reject;
    });
    this.#abandon.set(id, abandon);
    return Promise.race([exchange, abandoned]).finally(() => {
      if (this.#abandon.get(id) === abandon) this.#abandon.delete(id);
    });
  }

  /**
   * A controller for one request whose caller passed a signal, aborted by
   * that signal, by settle() or by cancel().
   *
   * @throws the signal's reason when it has already aborted.
   */
  link(signal: AbortSignal, id: JsonRpcId, onAborted?: () => void): SignalLink {
    if (signal.aborted) throw signal.reason;
    const controller = new AbortController();
    const onAbort = () => {
      controller.abort(signal.reason);
      onAborted?.();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    this.#controllers.set(id, controller);
    return { signal, controller, onAbort, id };
  }

  /** Unties a link once its request is over. */
  unlink(link: SignalLink): void {
    if (this.#controllers.get(link.id) === link.controller) this.#controllers.delete(link.id);
    link.signal.removeEventListener("abort", link.onAbort);
  }

  /** The set a request's SSE reader registers in: the transport's, and the request's own entry. */
  readersOf(id: JsonRpcId): StreamReaders {
    return {
      add: (reader) => {
        this.streams.add(reader);
        this.#readers.set(id, reader);
      },
      delete: (reader) => {
        this.streams.delete(reader);
        if (this.#readers.get(id) === reader) this.#readers.delete(id);
      },
    };
  }

  /** Whether the request with `id` is still awaited (not answered, cancelled or abandoned). */
  has(id: JsonRpcId): boolean {
    return this.#controllers.has(id) || this.#abandon.has(id);
  }

  /**
   * Stops one request: aborts its fetch (when it has a signal), closes its
   * response stream, and fails its call with `reason`.
   *
   * @returns whether the request was still in flight.
   */
  cancel(id: JsonRpcId, reason: Error): boolean {
    const controller = this.#controllers.get(id);
    const abandon = this.#abandon.get(id);
    const reader = this.#readers.get(id);
    this.#controllers.delete(id);
    this.#abandon.delete(id);
    this.#readers.delete(id);
    controller?.abort(reason);
    abandon?.(reason);
    if (reader !== undefined) {
      this.streams.delete(reader);
      reader.cancel(reason).catch(() => {});
    }
    return controller !== undefined || abandon !== undefined || reader !== undefined;
  }

  /** Fails every request still waiting and cancels every body being read. */
  settle(reason: Error): void {
    for (const controller of this.#controllers.values()) controller.abort(reason);
    this.#controllers.clear();
    for (const abandon of this.#abandon.values()) abandon(reason);
    this.#abandon.clear();
    for (const reader of this.streams) reader.cancel(reason).catch(() => {});
    this.streams.clear();
    this.#readers.clear();
  }
}
