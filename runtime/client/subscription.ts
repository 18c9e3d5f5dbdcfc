/**
 * `client.subscribe(...)`: one `subscriptions/listen` stream kept open for
 * the caller, delivered as an async iterable of typed events and through
 * optional callbacks, reopened with backoff after a drop.
 *
 * @module
 */
import { sleep } from "../protocol/sleep.js";
import type { Connection } from "./connection.js";
import type { SubscriptionRun, SubscriptionSink } from "./subscription-loop.js";

import type { SubscribeOptions, SubscriptionEvent, SubscriptionRequest } from "./subscription-types.js";

export type { ReconnectingInfo, ReconnectPolicy, SubscribeOptions, SubscriptionEvent, SubscriptionRequest } from "./subscription-types.js";

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
  /** The work itself lives in its own chunk, loaded on the first subscription: clients that never subscribe do not carry it. */
  readonly #run: Promise<SubscriptionRun>;
  #loaded: SubscriptionRun | undefined;

  /** @internal use {@link Client.subscribe} */
  constructor(connection: Connection, filter: SubscriptionRequest, options: SubscribeOptions = {}) {
    let ack!: SubscriptionSink["ack"];
    this.acknowledged = new Promise((resolve, reject) => (ack = { resolve, reject }));
    this.acknowledged.catch(() => {}); // the iterator reports the same failure; no unhandled rejection
    this.#run = import("./subscription-loop.js").then(({ startSubscription }) => (this.#loaded = startSubscription({ connection, filter, options, ack, sleep })));
    this.#run.catch((error: unknown) => ack.reject(error));
  }

  /** True once the subscription ended (closed, or given up). */
  get ended(): boolean {
    return this.#loaded?.ended ?? false;
  }

  /** Ends the subscription: closes the open stream (the cancellation the transport defines) and finishes the iterator. */
  async close(): Promise<void> {
    await (await this.#run).close();
  }

  /** Iterates the events in arrival order; leaving a `for await` loop early closes the subscription. */
  [Symbol.asyncIterator](): AsyncIterator<SubscriptionEvent> {
    return {
      next: async () => (await this.#run).next(),
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }
}
