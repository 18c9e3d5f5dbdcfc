/**
 * The work of a {@link Subscription}, loaded on its first use so a client
 * that never subscribes does not carry it: keep one `subscriptions/listen`
 * stream open, turn its messages into events, reopen it with backoff.
 *
 * @module
 * @internal
 */
// Type imports only: a value shared with the client's own chunk would move into a third chunk that
// every call then loads (docs/internals.md); what the loop needs at run time comes through the sink.
import type { JsonRpcNotification } from "../protocol/jsonrpc/messages.js";
import type { Connection } from "./connection.js";
import type { JsonObject } from "./protocol.js";
import type { ReconnectPolicy, SubscribeOptions, SubscriptionEvent, SubscriptionRequest } from "./subscription-types.js";

/** What a subscription hands its loop. @internal */
export interface SubscriptionSink {
  readonly connection: Connection;
  readonly filter: SubscriptionRequest;
  readonly options: SubscribeOptions;
  /** Settles `subscription.acknowledged`. */
  readonly ack: { resolve(filter: SubscriptionRequest): void; reject(error: unknown): void };
  /** Waits `ms`, rejecting when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const DEFAULT_RECONNECT: Readonly<ReconnectPolicy> = Object.freeze({ initialMs: 250, maxMs: 10_000, maxAttempts: Number.POSITIVE_INFINITY });

/** The `reconnect` option, checked; `undefined` for no reconnection. @throws RangeError naming the bad field */
function reconnectPolicyOf(option: SubscribeOptions["reconnect"]): ReconnectPolicy | undefined {
  if (option === false) return undefined;
  const policy = { ...DEFAULT_RECONNECT, ...option };
  for (const field of ["initialMs", "maxMs"] as const) {
    if (typeof policy[field] !== "number" || !Number.isFinite(policy[field]) || policy[field] < 0) {
      throw new RangeError(`subscribe: reconnect.${field} must be a finite number of milliseconds ≥ 0, got ${String(policy[field])}`);
    }
  }
  if (policy.maxMs < policy.initialMs) throw new RangeError(`subscribe: reconnect.maxMs (${policy.maxMs}) must be ≥ initialMs (${policy.initialMs})`);
  if (!(policy.maxAttempts >= 1)) throw new RangeError(`subscribe: reconnect.maxAttempts must be ≥ 1, got ${String(policy.maxAttempts)}`);
  return policy;
}

/**
 * Whether a failed attempt is worth another: a drop, or a server that is full or draining (`-32000`), not a
 * refusal that would repeat. Read by name, not `instanceof`, so this chunk imports no value from the client's.
 */
function retryable(error: unknown): boolean {
  const { name, code, data } = (error ?? {}) as { name?: unknown; code?: unknown; data?: { reason?: unknown } };
  if (name === "ClientClosed") return false;
  if (name !== "McpError") return true;
  return code === -32000 && (data?.reason === "too_many_listeners" || data?.reason === "shutting_down");
}

/** Each kind of list change waits at most once in the queue: a reader that fell behind gets one, not a thousand. */
function sameEvent(a: SubscriptionEvent, b: SubscriptionEvent): boolean {
  if (a.type !== b.type || a.type === "acknowledged") return false;
  return a.type !== "resourceUpdated" || a.uri === (b as { uri: string }).uri;
}

/** One running subscription: its queue of events for the iterator, and the loop that fills it. @internal */
export class SubscriptionRun {
  readonly sink: SubscriptionSink;
  readonly policy: ReconnectPolicy | undefined;
  /** Aborted to end the subscription (`close()`, or the caller's `signal`). */
  readonly stop = new AbortController();
  /** Settles once the loop stopped. */
  readonly done: Promise<void>;
  /** Streams reopened so far. */
  reconnects = 0;
  ended = false;
  #queue: SubscriptionEvent[] = [];
  #wake: (() => void) | undefined;
  #failure: unknown;

  constructor(sink: SubscriptionSink) {
    this.sink = sink;
    const outer = sink.options.signal;
    if (outer !== undefined) {
      if (outer.aborted) this.stop.abort(outer.reason);
      else outer.addEventListener("abort", () => this.stop.abort(outer.reason), { once: true });
    }
    let policy: ReconnectPolicy | undefined;
    let invalid: unknown;
    try {
      policy = reconnectPolicyOf(sink.options.reconnect);
    } catch (error) {
      invalid = error;
    }
    this.policy = policy;
    if (invalid !== undefined) {
      this.finish(invalid);
      this.done = Promise.resolve();
    } else {
      this.done = runSubscription(this).catch((error: unknown) => this.finish(error));
    }
  }

  /** Stops the loop (closing the open stream) and waits for it. */
  async close(): Promise<void> {
    if (!this.stop.signal.aborted) this.stop.abort(new Error("The subscription was closed."));
    await this.done;
  }

  async next(): Promise<IteratorResult<SubscriptionEvent>> {
    for (;;) {
      const event = this.#queue.shift();
      if (event !== undefined) return { value: event, done: false };
      if (this.ended) {
        if (this.#failure !== undefined) {
          const failure = this.#failure;
          this.#failure = undefined;
          throw failure;
        }
        return { value: undefined, done: true };
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  push(event: SubscriptionEvent): void {
    if (!this.#queue.some((queued) => sameEvent(queued, event))) this.#queue.push(event);
    this.#wake?.();
    this.#wake = undefined;
  }

  finish(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.#failure = error;
    this.sink.ack.reject(error ?? new Error("The subscription ended before the server acknowledged it."));
    this.#wake?.();
    this.#wake = undefined;
  }
}

/** Starts a subscription's loop. @internal */
export function startSubscription(sink: SubscriptionSink): SubscriptionRun {
  return new SubscriptionRun(sink);
}

/** Runs the subscription until it is stopped or gives up. */
async function runSubscription(run: SubscriptionRun): Promise<void> {
  const sink = run.sink;
  let failures = 0;
  const policy = run.policy;
  let delay = policy?.initialMs ?? 0;
  const stop = run.stop.signal;
  while (!stop.aborted) {
    let error: unknown;
    let acknowledged = false;
    try {
      await sink.connection.send("subscriptions/listen", { notifications: sink.filter as JsonObject }, stop, undefined, (notification) => {
        if (receive(run, notification)) acknowledged = true;
      });
    } catch (thrown) {
      error = thrown;
    }
    if (stop.aborted) break;
    if (acknowledged) {
      failures = 0;
      delay = policy?.initialMs ?? 0;
    }
    if (policy === undefined || (error !== undefined && !retryable(error)) || ++failures > policy.maxAttempts) {
      run.finish(error ?? (policy === undefined ? undefined : new Error(`subscriptions/listen: gave up after ${policy.maxAttempts} failed attempts in a row`)));
      return;
    }
    run.reconnects++;
    try {
      sink.options.onReconnecting?.({ attempt: failures, delayMs: delay, error });
    } catch {
      // A throwing observer does not stop the reconnection.
    }
    try {
      await sink.sleep(delay, stop);
    } catch {
      break;
    }
    delay = Math.min(Math.max(delay * 2, 1), policy.maxMs);
  }
  run.finish(undefined);
}

/** Handles one message of the stream. @returns true for the acknowledgement */
function receive(run: SubscriptionRun, notification: JsonRpcNotification): boolean {
  const params = (notification.params ?? {}) as Record<string, unknown>;
  let event: SubscriptionEvent | undefined;
  let callback: (() => void) | undefined;
  const options = run.sink.options;
  switch (notification.method) {
    case "notifications/subscriptions/acknowledged": {
      const agreed = (typeof params.notifications === "object" && params.notifications !== null ? params.notifications : {}) as SubscriptionRequest;
      run.sink.ack.resolve(agreed);
      run.push({ type: "acknowledged", notifications: agreed, reconnects: run.reconnects });
      return true;
    }
    case "notifications/tools/list_changed":
      event = { type: "toolsListChanged" };
      callback = options.onToolsChanged;
      break;
    case "notifications/prompts/list_changed":
      event = { type: "promptsListChanged" };
      callback = options.onPromptsChanged;
      break;
    case "notifications/resources/list_changed":
      event = { type: "resourcesListChanged" };
      callback = options.onResourcesChanged;
      break;
    case "notifications/resources/updated": {
      const uri = params.uri;
      if (typeof uri !== "string") return false;
      event = { type: "resourceUpdated", uri };
      const onUpdated = options.onResourceUpdated;
      callback = onUpdated === undefined ? undefined : () => onUpdated(uri);
      break;
    }
    default:
      return false; // the server's notifications/cancelled and anything unknown: the response ends the stream
  }
  run.push(event);
  try {
    callback?.();
  } catch {
    // A throwing callback must not end the stream; the event is still in the iterator.
  }
  return false;
}
