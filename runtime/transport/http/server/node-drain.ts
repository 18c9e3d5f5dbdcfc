/**
 * Graceful drain of a `node:http` server: stop keep-alive reuse (every
 * answer from then on says `Connection: close`), keep accepting while a
 * readiness probe takes the instance out, then stop accepting, close the
 * idle connections, let the requests in flight finish (up to a grace
 * period), and close whatever is left.
 *
 * Behind a load balancer this is what turns a rolling restart into zero
 * failed requests: a proxy retries a refused connection on another
 * instance, but never a POST that was cut mid-answer, nor one it had just
 * sent on a keep-alive connection the instance was closing. So an idle
 * connection is closed only once the proxy no longer routes here (the
 * instance is out of its rotation), and a busy one closes right after its
 * answer, which told the proxy so.
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

const DRAIN: unique symbol = Symbol("drain");
/** Where a tracked response sits in its drain's list; -1 once it closed. */
const SLOT: unique symbol = Symbol("drainSlot");
type TrackedResponse = ServerResponse & { [DRAIN]?: NodeDrain; [SLOT]?: number };

/** The `close` listener of every tracked response (a response closes once). */
function untrack(this: ServerResponse): void {
  (this as TrackedResponse)[DRAIN]?.closed(this);
}

/** Tracks the responses in flight on one server and drains it. @internal */
export class NodeDrain {
  readonly #server: NodeHttpServer;
  /**
   * The responses in flight, unordered: each knows its index, and one that closes takes the last one's
   * place. Not a Set: a Set that gains and loses an entry per request for the server's lifetime gets a
   * new hash table now and then, linked from the old one; once that old one is in the old generation it
   * keeps every later table, and the responses they held, alive through scavenges, so each request's
   * response, request and headers were promoted to the old generation.
   */
  readonly #active: TrackedResponse[] = [];
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
    return this.#active.length;
  }

  /** Counts a response until it closes; during a drain it says `Connection: close`, so its connection closes after it. */
  track(response: ServerResponse): void {
    const tracked = response as TrackedResponse;
    if (this.#draining) response.setHeader("connection", "close");
    // One listener function for every response (it finds its drain on the response): no closure per request.
    tracked[DRAIN] = this;
    tracked[SLOT] = this.#active.push(tracked) - 1;
    response.on("close", untrack);
  }

  /** A tracked response closed. @internal */
  closed(response: ServerResponse): void {
    const active = this.#active;
    const tracked = response as TrackedResponse;
    const slot = tracked[SLOT] ?? -1;
    if (active[slot] !== tracked) return; // closed already
    tracked[SLOT] = -1;
    const last = active.pop()!;
    if (last !== tracked) {
      active[slot] = last;
      last[SLOT] = slot;
    }
    if (this.#draining && active.length === 0) this.#wakeIdle?.();
  }

  /**
   * Drains: stops keep-alive reuse (every answer not yet started says
   * `Connection: close`; one already streaming closes its connection when
   * it ends), runs `beforeWait` (which ends 2025 sessions), keeps accepting
   * for `keepAcceptingMs` (the health path already answers `503`; idle
   * connections stay open, and a request on one is answered, with
   * `Connection: close`), then stops accepting, closes the idle
   * connections, waits for the requests in flight up to `graceMs`, and
   * closes every connection left. Idempotent: a second call gets the
   * first drain.
   */
  drain(graceMs: number, keepAcceptingMs: number, beforeWait: () => void): Promise<void> {
    if (this.#settled !== undefined) return this.#settled;
    this.#draining = true;
    for (const response of [...this.#active]) closeAfter(response);
    beforeWait();
    this.#settled = (keepAcceptingMs > 0 ? sleep(keepAcceptingMs, undefined) : Promise.resolve()).then(() => this.#finish(graceMs));
    return this.#settled;
  }

  #finish(graceMs: number): Promise<void> {
    const server = this.#server;
    const closed = new Promise<void>((resolve, reject) => {
      server.close((error) => (error && (error as { code?: string }).code !== "ERR_SERVER_NOT_RUNNING" ? reject(error) : resolve()));
    });
    // The proxy no longer routes here (out of its rotation, or keepAcceptingMs gave it time): idle connections can go.
    server.closeIdleConnections();
    const idle = new Promise<void>((resolve) => {
      if (this.#active.length === 0) resolve();
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

/** Makes `response`'s connection close once it is answered, so nothing more is sent on it. */
function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) {
    response.setHeader("connection", "close");
    return;
  }
  // Its headers (an SSE answer already streaming) promised keep-alive: end the connection with the answer.
  const socket = response.socket;
  if (socket !== null) response.once("finish", () => socket.end());
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
