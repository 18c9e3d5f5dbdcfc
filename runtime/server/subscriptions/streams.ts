/**
 * The server side of `subscriptions/listen`: the open listener streams of
 * one server, their bound, the acknowledgement, delivery of each
 * {@link SubscriptionEvent} to the listeners that opted in, and their end
 * (the client goes away or cancels; the server drains or shuts down).
 *
 * Once acknowledged, a stream whose transport can hold it (Streamable HTTP,
 * `RequestContext.holdStream`) is handed over: the transport's stream is
 * then the listener's one object, and the request's contexts and pending
 * answer go, since an idle stream may last hours.
 *
 * @module
 */
import { McpError } from "../../protocol/jsonrpc/errors.js";
import type { HeldStream, HeldStreamOwner } from "../../protocol/context.js";
import type { JsonRpcId, JsonRpcNotification, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import type { RequestContextImpl } from "../context.js";
import type { ServerLogger } from "../types.js";
import type { SubscriptionEvent } from "./broadcaster.js";
import { agreeFilter, deliveryOf, methodOf, receives, type AgreedFilter, type Delivery, type SubscriptionType } from "./filter.js";
import { MetaKey } from "../../protocol/names.js";

/** The `_meta` key every message of a subscription stream carries: the id of the `subscriptions/listen` request. */
export const SUBSCRIPTION_ID_META = MetaKey.subscriptionId;

/**
 * The JSON-RPC error code of a `subscriptions/listen` the server refuses to
 * open: it already holds its maximum of listeners (`subscriptions.maxListeners`,
 * `data.reason: "too_many_listeners"`) or is shutting down
 * (`data.reason: "shutting_down"`). An implementation-defined server error
 * (JSON-RPC reserves -32000 to -32099 for them).
 */
export const TOO_MANY_LISTENERS = -32000;

/** Default bound of open listener streams per server. */
export const DEFAULT_MAX_LISTENERS = 10_000;

/** How one listen stream ended: the server closed it (answer with the result), or the client went away (answer nothing). */
export type ListenEnd = "closed" | "gone";

/**
 * Turns how a listen stream ended into the listen request's answer: one per
 * server, shared by its streams, so a stream's promise resolves with its
 * answer directly rather than through a reaction of its own. Never throws.
 * @internal
 */
export interface ListenAnswers {
  /** The answer of a stream that ended `how`. */
  answer(ctx: RequestContextImpl, how: ListenEnd): JsonRpcResponse | undefined;
  /** The answer of a listen request that could not open. */
  failed(ctx: RequestContextImpl, error: unknown): JsonRpcResponse | undefined;
  /** The request's transport now holds its stream: what tracked the request tracks the stream instead. */
  handOver(ctx: RequestContextImpl, stream: HeldStream): void;
  /** The answer of a held stream that ended `how`, under the protocol version its request spoke. */
  answerHeld(stream: HeldStream, protocolVersion: string, how: ListenEnd): JsonRpcResponse | undefined;
}

/**
 * One open listener stream. A class with its methods on the prototype: an
 * idle stream may last hours, so it holds its few fields and the resolver
 * of its answer, not a closure per step.
 */
class Listener {
  /** Notifications held back until the acknowledgement is out; `undefined` once it is. */
  backlog: JsonRpcNotification[] | undefined = [];
  /** Detaches the cancellation watch; set once it is registered. */
  detach: (() => void) | undefined;
  /** What it receives (shared between listeners where it can be). */
  readonly filter: Delivery;
  readonly ctx: RequestContextImpl;
  readonly answers: ListenAnswers;
  readonly #open: Set<Listener | HeldStream>;
  readonly #resolve: (answer: JsonRpcResponse | undefined) => void;

  constructor(
    ctx: RequestContextImpl,
    filter: Delivery,
    open: Set<Listener | HeldStream>,
    answers: ListenAnswers,
    resolve: (answer: JsonRpcResponse | undefined) => void,
  ) {
    this.filter = filter;
    this.ctx = ctx;
    this.#open = open;
    this.answers = answers;
    this.#resolve = resolve;
  }

  get requestId(): JsonRpcId {
    return this.ctx.requestId;
  }

  /** Ends the stream once: it leaves the open set, stops watching, and its listen request is answered. */
  end(how: ListenEnd): void {
    if (!this.#open.delete(this)) return;
    this.detach?.();
    this.detach = undefined;
    this.#resolve(this.answers.answer(this.ctx, how));
  }

  /** The request was cancelled or its client went away. */
  gone(): void {
    this.end("gone");
  }

  /**
   * Its transport holds the stream now (`held` took this listener's place
   * in the open set): stop watching, move the tracking to the stream, and
   * settle the request's promise, which the transport no longer writes.
   */
  handOver(held: HeldStream): void {
    this.detach?.();
    this.detach = undefined;
    this.answers.handOver(this.ctx, held);
    this.#resolve(undefined);
  }
}

/**
 * The owner of the streams transports hold for one server, route and
 * protocol version (see `RequestContext.holdStream`): one object for all
 * of them, so a held stream costs the server its entry in the open set and
 * nothing else.
 */
class HeldListeners implements HeldStreamOwner {
  readonly answers: ListenAnswers;
  readonly protocolVersion: string;
  readonly #open: Set<Listener | HeldStream>;

  constructor(answers: ListenAnswers, protocolVersion: string, open: Set<Listener | HeldStream>) {
    this.answers = answers;
    this.protocolVersion = protocolVersion;
    this.#open = open;
  }

  /** Ends a held stream once: it leaves the open set and is answered (nothing when `gone`). */
  end(stream: HeldStream, how: ListenEnd): void {
    if (!this.#open.delete(stream)) return;
    stream.finish(this.answers.answerHeld(stream, this.protocolVersion, how));
  }

  gone(stream: HeldStream): void {
    this.end(stream, "gone");
  }
}

/** The listener streams of one server. @internal */
export class SubscriptionStreams {
  /** The open streams: a listener of this server's own, or, once handed over, its transport's stream. */
  readonly #listeners = new Set<Listener | HeldStream>();
  /** The owners of held streams, one per listen route and protocol version (a handful at most). */
  readonly #owners: HeldListeners[] = [];
  readonly #max: number;
  readonly #logger: ServerLogger;
  #closed = false;

  constructor(max: number, logger: ServerLogger) {
    this.#max = max;
    this.#logger = logger;
  }

  /** Listener streams open now. */
  get size(): number {
    return this.#listeners.size;
  }

  /**
   * Serves one `subscriptions/listen` request: checks its filter and the
   * bound, acknowledges, then delivers events until the stream ends.
   *
   * @param ctx - the request's context; its transport must be able to stream notifications
   * @param requested - `params.notifications`
   * @param honoured - the types this server honours
   * @param answers - what makes the request's answer of how its stream ended
   * @returns the request's answer, once the stream ended; at once the answer of `answers.failed`
   *   with McpError -32602 for an unknown subscription type, {@link TOO_MANY_LISTENERS} past the
   *   bound or when the server is shut down, -32603 when the transport cannot stream
   */
  listen(ctx: RequestContextImpl, requested: unknown, honoured: ReadonlySet<SubscriptionType>, answers: ListenAnswers): Promise<JsonRpcResponse | undefined> {
    // Not an async function: an idle stream then waits on the one promise it returns, not on a chain of them.
    let filter: AgreedFilter;
    try {
      filter = this.#admit(ctx, requested, honoured);
    } catch (error) {
      return Promise.resolve(answers.failed(ctx, error));
    }
    let resolve!: (answer: JsonRpcResponse | undefined) => void;
    const ended = new Promise<JsonRpcResponse | undefined>((done) => (resolve = done));
    const listener = new Listener(ctx, deliveryOf(filter), this.#listeners, answers, resolve);
    this.#listeners.add(listener);
    // Bound rather than a closure: nothing of this call's scope stays with the stream.
    const detach = ctx.watchCancelled(listener.gone.bind(listener));
    // A request cancelled already has ended by now: nothing left to watch.
    if (this.#listeners.has(listener)) listener.detach = detach;
    else detach?.();
    // What arrives while the acknowledgement is being sent waits for it: nothing may precede it, nothing is lost.
    void this.#send(ctx, {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [SUBSCRIPTION_ID_META]: ctx.requestId }, notifications: filter.acknowledged },
    }).then(() => this.#flush(listener));
    return ended;
  }

  /**
   * The listen request's filter, once it may open: an unknown type, a
   * transport without a notification channel, a shut-down server or one at
   * its bound throws (the promise `listen` returns rejects with it).
   */
  #admit(ctx: RequestContextImpl, requested: unknown, honoured: ReadonlySet<SubscriptionType>): AgreedFilter {
    const filter = agreeFilter(requested, honoured);
    if (ctx.transport?.sendNotification === undefined) {
      throw new McpError(
        -32603,
        "Internal error: this transport cannot carry a subscriptions/listen stream (it has no channel for notifications); use Streamable HTTP, stdio or the in-memory transport",
      );
    }
    if (this.#closed) {
      throw new McpError(TOO_MANY_LISTENERS, "The server is shutting down and accepts no new subscriptions; listen again on another instance", {
        reason: "shutting_down",
      });
    }
    if (this.#listeners.size >= this.#max) {
      throw new McpError(
        TOO_MANY_LISTENERS,
        `Too many subscriptions: this server holds at most ${this.#max} subscriptions/listen streams at once (subscriptions.maxListeners). ` +
          "Close a stream you no longer need, combine filters into one stream, or retry later.",
        { reason: "too_many_listeners", limit: this.#max },
      );
    }
    return filter;
  }

  /** The acknowledgement is out: what waited for it goes now, and the transport may take the stream over. */
  #flush(listener: Listener): void {
    const backlog = listener.backlog!;
    listener.backlog = undefined;
    for (const notification of backlog) void this.#send(listener.ctx, notification);
    this.#hold(listener);
  }

  /**
   * Hands an open, acknowledged stream to its transport when the transport
   * can hold it: the held stream takes the listener's place, and the
   * request's own objects (its contexts, its pending answer) can go.
   */
  #hold(listener: Listener): void {
    const transport = listener.ctx.transport;
    if (transport?.holdStream === undefined || !this.#listeners.has(listener)) return;
    const held = transport.holdStream(this.#ownerOf(listener.answers, listener.ctx.protocolVersion), listener.filter);
    if (held === undefined) return;
    this.#listeners.delete(listener);
    this.#listeners.add(held);
    listener.handOver(held);
  }

  #ownerOf(answers: ListenAnswers, protocolVersion: string): HeldListeners {
    let owner = this.#owners.find((known) => known.answers === answers && known.protocolVersion === protocolVersion);
    if (owner === undefined) {
      owner = new HeldListeners(answers, protocolVersion, this.#listeners);
      this.#owners.push(owner);
    }
    return owner;
  }

  /** Delivers `event` to every listener that opted in to it. */
  deliver(event: SubscriptionEvent): void {
    if (this.#listeners.size === 0) return;
    const method = methodOf(event);
    for (const listener of this.#listeners) {
      if (!receives(listener.filter as Delivery, event)) continue;
      const params: Record<string, unknown> = { _meta: { [SUBSCRIPTION_ID_META]: listener.requestId } };
      if (event.type === "resourceUpdated") params.uri = event.uri;
      const notification: JsonRpcNotification = { jsonrpc: "2.0", method, params };
      if (!(listener instanceof Listener)) this.#sendHeld(listener, notification);
      else if (listener.backlog !== undefined) listener.backlog.push(notification);
      else void this.#send(listener.ctx, notification);
    }
  }

  /**
   * Ends every open stream gracefully (each listen request is answered with
   * its result), and, with `final`, refuses new ones: what a drain or a
   * shutdown does. On transports with no per-request stream (stdio, in
   * memory) the client is first told with `notifications/cancelled`, as the
   * cancellation page asks of a server that tears a subscription down.
   */
  closeAll(reason: string, final: boolean): number {
    if (final) this.#closed = true;
    const open = [...this.#listeners];
    for (const listener of open) {
      // A held stream is the request's own response stream: its ending with the result says it all.
      if (!(listener instanceof Listener)) {
        (listener.owner as HeldListeners).end(listener, "closed");
        continue;
      }
      if (listener.ctx.transport?.headers === undefined) {
        void this.#send(listener.ctx, {
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { _meta: { [SUBSCRIPTION_ID_META]: listener.ctx.requestId }, requestId: listener.ctx.requestId, reason },
        });
      }
      listener.end("closed");
    }
    return open.length;
  }

  /** Writes on a held stream; a stream that cannot take it is ended by its transport, as a client that went away. */
  #sendHeld(stream: HeldStream, notification: JsonRpcNotification): void {
    try {
      stream.send(notification);
    } catch (error) {
      this.#logger.warn(`subscriptions/listen ${JSON.stringify(stream.requestId)}: could not send ${notification.method}`, { error });
    }
  }

  async #send(ctx: RequestContextImpl, notification: JsonRpcNotification): Promise<void> {
    try {
      await ctx.sendNotification(notification);
    } catch (error) {
      // The stream broke: the transport aborts the request, which ends the listener.
      this.#logger.warn(`subscriptions/listen ${JSON.stringify(ctx.requestId)}: could not send ${notification.method}`, { error });
    }
  }
}
