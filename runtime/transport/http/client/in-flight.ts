/**
 * What the HTTP client's `close()` must settle: requests waiting for their
 * answer, and SSE bodies being read.
 *
 * @internal
 */
import type { StreamReader } from "./sse-read.js";

/** The controller of a request whose caller passed a signal, and the listener tying them. */
export interface SignalLink {
  signal: AbortSignal;
  controller: AbortController;
  onAbort: () => void;
}

/** @internal */
export class InFlight {
  /** Controllers of requests whose caller passed a signal: settle() aborts them on the wire. */
  readonly #controllers = new Set<AbortController>();
  /**
   * Rejecters of requests sent without a signal: settle() fails their calls at once.
   * Those requests carry no signal to fetch at all, because fetch
   * implementations tie each signalled request to the signal with listeners
   * and weak references that cost the garbage collector dearly under load.
   */
  readonly #abandon = new Set<(reason: Error) => void>();
  /** Readers of the SSE bodies being read: settle() cancels them, which closes their connections. */
  readonly streams = new Set<StreamReader>();

  /** `exchange`, unless settle() fails it first (the race also absorbs its late rejection). */
  guard<T>(exchange: Promise<T>): Promise<T> {
    let abandon!: (reason: Error) => void;
    const abandoned = new Promise<never>((_, reject) => {
      abandon = reject;
    });
    this.#abandon.add(abandon);
    return Promise.race([exchange, abandoned]).finally(() => this.#abandon.delete(abandon));
  }

  /**
   * A controller for one request whose caller passed a signal, aborted by
   * that signal or by settle().
   *
   * @throws the signal's reason when it has already aborted.
   */
  link(signal: AbortSignal): SignalLink {
    if (signal.aborted) throw signal.reason;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    this.#controllers.add(controller);
    return { signal, controller, onAbort };
  }

  /** Unties a link once its request is over. */
  unlink(link: SignalLink): void {
    this.#controllers.delete(link.controller);
    link.signal.removeEventListener("abort", link.onAbort);
  }

  /** Fails every request still waiting and cancels every body being read. */
  settle(reason: Error): void {
    for (const controller of this.#controllers) controller.abort(reason);
    this.#controllers.clear();
    for (const abandon of this.#abandon) abandon(reason);
    this.#abandon.clear();
    for (const reader of this.streams) reader.cancel(reason).catch(() => {});
    this.streams.clear();
  }
}
