/**
 * `client.subscribe(...)`: one `subscriptions/listen` stream kept open for
 * the caller, delivered as an async iterable of typed events and through
 * optional callbacks, reopened with backoff after a drop.
 *
 * @module
 */
import { McpError } from "../jsonrpc/errors.js";
import type { JsonRpcNotification } from "../jsonrpc/messages.js";
import { sleep } from "../sleep.js";
import type { Connection } from "./connection.js";
import { ClientClosed } from "./errors.js";
import type { JsonObject } from "./protocol.js";

/** What a subscription asks for: the `notifications` filter of `subscriptions/listen`. */
export interface SubscriptionRequest {
  /** Hear `notifications/tools/list_changed`. */
  toolsListChanged?: boolean;
  /** Hear `notifications/prompts/list_changed`. */
  promptsListChanged?: boolean;
  /** Hear `notifications/resources/list_changed`. */
  resourcesListChanged?: boolean;
  /** Hear `notifications/resources/updated` for these URIs. */
  resourceSubscriptions?: string[];
}

/**
 * One event of a subscription. `acknowledged` opens every stream: the first
 * (`reconnects: 0`) and each one reopened after a drop, when changes may
 * have been missed meanwhile, so re-read what you cache.
 */
export type SubscriptionEvent =
  | { readonly type: "acknowledged"; readonly notifications: SubscriptionRequest; readonly reconnects: number }
  | { readonly type: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" }
  | { readonly type: "resourceUpdated"; readonly uri: string };

/** How a subscription reopens after a drop: delays from `initialMs` doubling to `maxMs`, at most `maxAttempts` in a row. */
export interface ReconnectPolicy {
  /** First delay, in milliseconds. Default 250. */
  initialMs: number;
  /** Ceiling, in milliseconds. Default 10,000. */
  maxMs: number;
  /** Failed attempts in a row before the subscription gives up and its iterator throws. Default: unlimited. */
  maxAttempts: number;
}

/** What a subscription reports before each reconnection attempt. */
export interface ReconnectingInfo {
  /** 1 for the first attempt after a drop, then 2, … (reset once a stream is acknowledged). */
  readonly attempt: number;
  /** How long it waits before this attempt. */
  readonly delayMs: number;
  /** Why the stream ended: the transport's error, or `undefined` when the server closed it gracefully. */
  readonly error: unknown;
}

/** Options of {@link Client.subscribe}. */
export interface SubscribeOptions {
  /** Ends the subscription when aborted. */
  signal?: AbortSignal;
  /** Reconnection after a drop or a graceful close (default on); `false` ends the subscription instead. */
  reconnect?: false | Partial<ReconnectPolicy>;
  /** Told before each reconnection attempt, and why. */
  onReconnecting?: (info: ReconnectingInfo) => void;
  /** Called on `notifications/tools/list_changed`. */
  onToolsChanged?: () => void;
  /** Called on `notifications/prompts/list_changed`. */
  onPromptsChanged?: () => void;
  /** Called on `notifications/resources/list_changed`. */
  onResourcesChanged?: () => void;
  /** Called on `notifications/resources/updated`, with the resource's URI. */
  onResourceUpdated?: (uri: string) => void;
}

const DEFAULT_RECONNECT: Readonly<ReconnectPolicy> = Object.freeze({ initialMs: 250, maxMs: 10_000, maxAttempts: Number.POSITIVE_INFINITY });
const TOO_MANY_OR_DRAINING = -32000;

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

/** A refusal worth retrying: the server is full or draining (`-32000`), not one that would be refused again. */
function retryable(error: unknown): boolean {
  if (!(error instanceof McpError)) return !(error instanceof ClientClosed);
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  return error.code === TOO_MANY_OR_DRAINING && (reason === "too_many_listeners" || reason === "shutting_down");
}

/** Each kind of list change waits at most once in the queue: a reader that fell behind gets one, not a thousand. */
function sameEvent(a: SubscriptionEvent, b: SubscriptionEvent): boolean {
  if (a.type !== b.type || a.type === "acknowledged") return false;
  return a.type !== "resourceUpdated" || a.uri === (b as { uri: string }).uri;
}

/**
 * A live `subscriptions/listen` subscription (see {@link Client.subscribe}).
 * Iterate it for its events; breaking out of the loop, `close()` or the
 * `signal` ends the stream. It keeps one stream open at a time, reopening it
 * after a drop (`onReconnecting` says so, and an `acknowledged` event with
 * `reconnects > 0` follows). A refusal that would repeat (an unknown
 * subscription type, a server without `subscriptions/listen`) ends it: the
 * iterator throws that error, and so does `acknowledged` when it was the
 * first attempt.
 */
export class Subscription implements AsyncIterable<SubscriptionEvent> {
  /** The filter the server agreed to on the first stream (it omits types it does not support). */
  readonly acknowledged: Promise<SubscriptionRequest>;
  readonly #connection: Connection;
  readonly #filter: SubscriptionRequest;
  readonly #options: SubscribeOptions;
  readonly #policy: ReconnectPolicy | undefined;
  readonly #stop = new AbortController();
  readonly #queue: SubscriptionEvent[] = [];
  #wake: (() => void) | undefined;
  #failure: unknown;
  #ended = false;
  #reconnects = 0;
  #ack!: { resolve: (filter: SubscriptionRequest) => void; reject: (error: unknown) => void };
  #done: Promise<void>;

  /** @internal use {@link Client.subscribe} */
  constructor(connection: Connection, filter: SubscriptionRequest, options: SubscribeOptions = {}) {
    this.#connection = connection;
    this.#filter = filter;
    this.#options = options;
    this.#policy = reconnectPolicyOf(options.reconnect);
    this.acknowledged = new Promise((resolve, reject) => (this.#ack = { resolve, reject }));
    this.acknowledged.catch(() => {}); // the iterator reports the same failure; no unhandled rejection
    const outer = options.signal;
    if (outer !== undefined) {
      if (outer.aborted) this.#stop.abort(outer.reason);
      else outer.addEventListener("abort", () => this.#stop.abort(outer.reason), { once: true });
    }
    this.#done = this.#run();
  }

  /** True once the subscription ended (closed, or given up). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Ends the subscription: closes the open stream (the cancellation the transport defines) and finishes the iterator. */
  async close(): Promise<void> {
    if (!this.#stop.signal.aborted) this.#stop.abort(new Error("The subscription was closed."));
    await this.#done;
  }

  [Symbol.asyncIterator](): AsyncIterator<SubscriptionEvent> {
    return {
      next: async () => {
        for (;;) {
          const event = this.#queue.shift();
          if (event !== undefined) return { value: event, done: false };
          if (this.#ended) {
            if (this.#failure !== undefined) {
              const failure = this.#failure;
              this.#failure = undefined;
              throw failure;
            }
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (this.#wake = resolve));
        }
      },
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }

  async #run(): Promise<void> {
    let failures = 0;
    let delay = this.#policy?.initialMs ?? 0;
    const stop = this.#stop.signal;
    while (!stop.aborted) {
      let error: unknown;
      let acknowledged = false;
      try {
        await this.#connection.send("subscriptions/listen", { notifications: this.#filter as JsonObject }, stop, undefined, (notification) => {
          if (this.#receive(notification)) acknowledged = true;
        });
      } catch (thrown) {
        error = thrown;
      }
      if (stop.aborted) break;
      if (acknowledged) {
        failures = 0;
        delay = this.#policy?.initialMs ?? 0;
      }
      if (this.#policy === undefined || (error !== undefined && !retryable(error)) || ++failures > this.#policy.maxAttempts) {
        this.#finish(error ?? (this.#policy === undefined ? undefined : new Error(`subscriptions/listen: gave up after ${this.#policy.maxAttempts} failed attempts in a row`)));
        return;
      }
      this.#reconnects++;
      try {
        this.#options.onReconnecting?.({ attempt: failures, delayMs: delay, error });
      } catch {
        // A throwing observer does not stop the reconnection.
      }
      try {
        await sleep(delay, stop);
      } catch {
        break;
      }
      delay = Math.min(Math.max(delay * 2, 1), this.#policy.maxMs);
    }
    this.#finish(undefined);
  }

  /** Handles one message of the stream. @returns true for the acknowledgement */
  #receive(notification: JsonRpcNotification): boolean {
    const params = (notification.params ?? {}) as Record<string, unknown>;
    let event: SubscriptionEvent | undefined;
    let callback: (() => void) | undefined;
    const options = this.#options;
    switch (notification.method) {
      case "notifications/subscriptions/acknowledged": {
        const agreed = (typeof params.notifications === "object" && params.notifications !== null ? params.notifications : {}) as SubscriptionRequest;
        this.#ack.resolve(agreed);
        this.#push({ type: "acknowledged", notifications: agreed, reconnects: this.#reconnects });
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
    this.#push(event);
    try {
      callback?.();
    } catch {
      // A throwing callback must not end the stream; the event is still in the iterator.
    }
    return false;
  }

  #push(event: SubscriptionEvent): void {
    if (!this.#queue.some((queued) => sameEvent(queued, event))) this.#queue.push(event);
    this.#wake?.();
    this.#wake = undefined;
  }

  #finish(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = error;
    this.#ack.reject(error ?? new Error("The subscription ended before the server acknowledged it."));
    this.#wake?.();
    this.#wake = undefined;
  }
}
