/**
 * A `Broadcaster` on Redis pub/sub: every instance of a fleet publishes its
 * changes to one channel and hears everyone's, so a tool registered on one
 * instance reaches `subscriptions/listen` streams held by any other.
 */
import { isSubscriptionEvent, type Broadcaster, type SubscriptionEvent } from "../../server/subscriptions/broadcaster.js";
import type { RedisCommandClient } from "./store.js";

/**
 * What the broadcaster needs from the connection it listens on: node-redis's
 * `subscribe(channel, listener)` and `unsubscribe(channel)`. A connection in
 * subscriber mode can send nothing else, so it must be a second connection
 * (`client.duplicate()`), never the one that publishes.
 */
export interface RedisSubscriberClient {
  /** Starts listening on `channel`; resolves once Redis confirmed the subscription. */
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  /** Stops listening on `channel`, on close. */
  unsubscribe(channel: string): Promise<unknown>;
}

/** Options of {@link RedisBroadcaster.create}. */
export interface RedisBroadcasterOptions {
  /** Sends `PUBLISH` (any client with `sendCommand`, such as node-redis's). */
  publisher: RedisCommandClient;
  /** A separate connection to listen on (see {@link RedisSubscriberClient}). */
  subscriber: RedisSubscriberClient;
  /** The channel every instance of one service shares (default `"mcp:subscriptions"`). */
  channel?: string;
  /** Receives messages on the channel that are not events (another writer, a newer format); default: ignored silently. */
  onError?: (error: Error) => void;
}

/** Messages larger than this are not events this SDK wrote: dropped before parsing. */
const MAX_MESSAGE_BYTES = 64 * 1024;
const FORMAT = 1;

/**
 * A {@link Broadcaster} on a Redis channel. Delivery is at most once, as
 * Redis pub/sub is: an instance disconnected from Redis misses what was
 * published meanwhile, which is harmless for list-changed (the next change
 * tells again) but worth knowing for `resources/updated`.
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * const publisher = await createClient({ url: process.env.REDIS_URL }).connect();
 * const subscriber = await publisher.duplicate().connect();
 * const broadcaster = await RedisBroadcaster.create({ publisher, subscriber });
 * const mcp = new McpServer(info, { subscriptions: { broadcaster } });
 * ```
 */
export class RedisBroadcaster implements Broadcaster {
  readonly #publisher: RedisCommandClient;
  readonly #subscriber: RedisSubscriberClient;
  readonly #channel: string;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #local = new Set<(event: SubscriptionEvent) => void>();
  #closed = false;

  private constructor(options: Required<Pick<RedisBroadcasterOptions, "publisher" | "subscriber" | "channel">> & Pick<RedisBroadcasterOptions, "onError">) {
    this.#publisher = options.publisher;
    this.#subscriber = options.subscriber;
    this.#channel = options.channel;
    this.#onError = options.onError;
  }

  /**
   * Subscribes to the channel and resolves once Redis confirmed it, so
   * nothing published after this resolves is missed.
   *
   * @throws TypeError for a malformed option; whatever the client throws when Redis refuses
   */
  static async create(options: RedisBroadcasterOptions): Promise<RedisBroadcaster> {
    if (typeof options !== "object" || options === null) throw new TypeError("RedisBroadcaster.create: expected { publisher, subscriber, channel? }");
    const { publisher, subscriber, channel = "mcp:subscriptions", onError } = options;
    if (typeof publisher?.sendCommand !== "function")
      throw new TypeError("RedisBroadcaster.create: publisher must have sendCommand(args), e.g. a node-redis client");
    if (typeof subscriber?.subscribe !== "function" || typeof subscriber.unsubscribe !== "function") {
      throw new TypeError(
        "RedisBroadcaster.create: subscriber must have subscribe(channel, listener) and unsubscribe(channel): a second node-redis connection, client.duplicate()",
      );
    }
    if (publisher === (subscriber as unknown)) {
      throw new TypeError(
        "RedisBroadcaster.create: publisher and subscriber must be two connections (a subscribed connection can send nothing else); use client.duplicate()",
      );
    }
    if (typeof channel !== "string" || channel === "") throw new TypeError("RedisBroadcaster.create: channel must be a non-empty string");
    if (onError !== undefined && typeof onError !== "function") throw new TypeError("RedisBroadcaster.create: onError must be a function");
    const broadcaster = new RedisBroadcaster({ publisher, subscriber, channel, onError });
    await subscriber.subscribe(channel, (message) => broadcaster.#receive(message));
    return broadcaster;
  }

  /** The channel it publishes to and listens on. */
  get channel(): string {
    return this.#channel;
  }

  /**
   * Publishes `event` to every instance on the channel, this one included
   * (its own servers hear it when Redis delivers it back).
   * @throws TypeError for something that is not a `SubscriptionEvent`; rejects when Redis does
   */
  async publish(event: SubscriptionEvent): Promise<void> {
    if (!isSubscriptionEvent(event)) throw new TypeError("RedisBroadcaster.publish: expected a SubscriptionEvent");
    if (this.#closed) throw new Error("RedisBroadcaster.publish: the broadcaster is closed");
    const wire = event.type === "resourceUpdated" ? { v: FORMAT, type: event.type, uri: event.uri } : { v: FORMAT, type: event.type };
    await this.#publisher.sendCommand(["PUBLISH", this.#channel, JSON.stringify(wire)]);
  }

  /**
   * @param deliver - receives every event on the channel from now on
   * @returns the function that stops it
   */
  subscribe(deliver: (event: SubscriptionEvent) => void): () => void {
    if (typeof deliver !== "function") throw new TypeError("RedisBroadcaster.subscribe: deliver must be a function");
    const own = (event: SubscriptionEvent) => deliver(event);
    this.#local.add(own);
    return () => void this.#local.delete(own);
  }

  /** Unsubscribes from the channel; the connections stay yours to close. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#local.clear();
    await this.#subscriber.unsubscribe(this.#channel);
  }

  #receive(message: string): void {
    if (this.#closed) return;
    let event: unknown;
    try {
      if (typeof message !== "string" || message.length > MAX_MESSAGE_BYTES) throw new Error("not a string of at most 64 KiB");
      event = JSON.parse(message);
      if ((event as { v?: unknown })?.v !== FORMAT || !isSubscriptionEvent(event)) throw new Error("not a subscription event of format 1");
    } catch (error) {
      this.#onError?.(new Error(`RedisBroadcaster: ignored a message on ${this.#channel}: ${(error as Error).message}`));
      return;
    }
    const { type } = event as SubscriptionEvent;
    const clean: SubscriptionEvent = type === "resourceUpdated" ? { type, uri: (event as { uri: string }).uri } : { type };
    for (const deliver of [...this.#local]) {
      try {
        deliver(clean);
      } catch {
        // One subscriber's failure (servers log their own) must not keep the event from the others.
      }
    }
  }
}
