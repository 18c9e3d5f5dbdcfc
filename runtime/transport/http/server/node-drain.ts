/**
 * Graceful drain of a `node:http` server: stop accepting connections, let
 * the requests in flight finish (up to a grace period), close every
 * connection as soon as it is idle, then close whatever is left.
 *
 * Behind a load balancer this is what turns a rolling restart into zero
 * failed requests: a proxy retries a refused connection on another
 * instance, but never a POST that was cut mid-answer.
 */
import type { Server as NodeHttpServer, ServerResponse } from "node:http";
import { sleep } from "../../../protocol/sleep.js";

/** Default grace of `close()` and of a signal-triggered shutdown: 5 seconds. */
export const DEFAULT_DRAIN_GRACE_MS = 5_000;

/** Validates a grace period in milliseconds. @internal */
export function graceOf(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a number of milliseconds ≥ 0, got ${String(value)}.`);
  }
  return value;
}

/** Tracks the responses in flight on one server and drains it. @internal */
export class NodeDrain {
  readonly #server: NodeHttpServer;
  readonly #active = new Set<ServerResponse>();
  #draining = false;
  #settled: Promise<void> | undefined;
  #wakeIdle: (() => void) | undefined;

  constructor(server: NodeHttpServer) {
    this.#server = server;
  }

  /** True from the moment a drain starts. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Responses not yet finished (open SSE streams included). */
  get inFlight(): number {
    return this.#active.size;
  }

  /** Counts a response until it closes; during a drain its connection closes after it. */
  track(response: ServerResponse): void {
    this.#active.add(response);
    if (this.#draining) response.setHeader("connection", "close");
    response.once("close", () => {
      this.#active.delete(response);
      if (!this.#draining) return;
      // Its connection is idle now (or closing): a drained server keeps none open.
      this.#server.closeIdleConnections();
      if (this.#active.size === 0) this.#wakeIdle?.();
    });
  }

  /**
   * Drains: marks every answer not yet started `Connection: close`, runs
   * `beforeWait` (which ends 2025 sessions), keeps accepting for
   * `keepAcceptingMs` (the health path already answers `503`), then stops
   * accepting, closes idle connections, waits for the requests in flight up
   * to `graceMs`, and closes every connection left. Idempotent: a second
   * call gets the first drain.
   */
  drain(graceMs: number, keepAcceptingMs: number, beforeWait: () => void): Promise<void> {
    if (this.#settled !== undefined) return this.#settled;
    this.#draining = true;
    for (const response of this.#active) if (!response.headersSent) response.setHeader("connection", "close");
    beforeWait();
    this.#settled = (keepAcceptingMs > 0 ? sleep(keepAcceptingMs, undefined) : Promise.resolve()).then(() => this.#finish(graceMs));
    return this.#settled;
  }

  #finish(graceMs: number): Promise<void> {
    const server = this.#server;
    const closed = new Promise<void>((resolve, reject) => {
      server.close((error) => (error && (error as { code?: string }).code !== "ERR_SERVER_NOT_RUNNING" ? reject(error) : resolve()));
    });
    server.closeIdleConnections();
    const idle = new Promise<void>((resolve) => {
      if (this.#active.size === 0) resolve();
      else this.#wakeIdle = resolve;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    return Promise.race([idle, timeout]).then(() => {
      clearTimeout(timer);
      // Past the grace (or with nothing left in flight): whatever is still open is cut.
      server.closeAllConnections();
      return closed;
    });
  }
}

/** Options of a signal-triggered shutdown. @internal */
export interface SignalShutdown {
  readonly signals: readonly NodeJS.Signals[];
  readonly drain: () => Promise<void>;
  readonly onShutdown: (() => void | Promise<void>) | undefined;
  readonly exit: boolean;
  readonly onError: (error: unknown) => void;
}

const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Installs the signal handlers: the first signal drains, runs `onShutdown`
 * and exits 0; a second one while draining exits at once (128 + signal).
 * Returns the function that removes them (called when the server closes).
 * @internal
 */
export function installSignalHandlers(shutdown: SignalShutdown): () => void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      process.exit(SIGNAL_EXIT_CODES[signal] ?? 1);
      return;
    }
    started = true;
    void (async () => {
      let code = 0;
      try {
        await shutdown.drain();
        await shutdown.onShutdown?.();
      } catch (error) {
        shutdown.onError(error);
        code = 1;
      }
      if (shutdown.exit) process.exit(code);
    })();
  };
  for (const signal of shutdown.signals) process.on(signal, onSignal);
  return () => {
    for (const signal of shutdown.signals) process.off(signal, onSignal);
  };
}
