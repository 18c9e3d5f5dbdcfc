/**
 * What carries a change (a list changed, a resource was updated) from the
 * instance where it happened to every instance holding listeners: in one
 * process a plain fan-out, in a fleet a pub/sub channel (see
 * `mcp-roundtrip/ext/redis`).
 *
 * @module
 */

/** The kinds of list whose changes listeners can opt in to. */
export type ListKind = "tools" | "prompts" | "resources";

/**
 * One change a server announces to `subscriptions/listen` listeners (and to
 * 2025 sessions): a list changed, or the resource at `uri` was updated.
 */
export type SubscriptionEvent =
  | {
      /** Which list changed; listeners list it again. */
      readonly type: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";
    }
  | {
      /** One resource changed; only listeners subscribed to `uri` are told. */
      readonly type: "resourceUpdated";
      /** The resource that changed. */
      readonly uri: string;
    };

/**
 * Carries {@link SubscriptionEvent}s between the servers that share it.
 * `publish` sends an event to every subscriber, the publisher's own server
 * included, which is how a server's own listeners hear about its own
 * changes. Give two instances the same broadcaster (or two Redis
 * broadcasters on one channel) and a change on either reaches the listeners
 * of both.
 */
export interface Broadcaster {
  /** Sends `event` to every subscriber; a rejection means it may not have reached the others. */
  publish(event: SubscriptionEvent): void | Promise<void>;
  /**
   * Starts delivering events to `deliver`, synchronously or later as the
   * medium allows.
   * @returns the function that stops the delivery
   */
  subscribe(deliver: (event: SubscriptionEvent) => void): () => void;
}

const LIST_EVENTS: ReadonlySet<string> = new Set(["toolsListChanged", "promptsListChanged", "resourcesListChanged"]);

/**
 * True when `value` is a well-formed {@link SubscriptionEvent}; what a
 * broadcaster reads from a shared medium must pass this before it is
 * delivered.
 */
export function isSubscriptionEvent(value: unknown): value is SubscriptionEvent {
  if (typeof value !== "object" || value === null) return false;
  const { type, uri } = value as { type?: unknown; uri?: unknown };
  if (typeof type !== "string") return false;
  if (LIST_EVENTS.has(type)) return true;
  return type === "resourceUpdated" && typeof uri === "string" && uri.length > 0;
}

/**
 * The default {@link Broadcaster}: delivers each event synchronously to
 * every subscriber in this process. One per server unless you share one
 * between servers of the same process.
 *
 * @example
 * ```ts
 * const broadcaster = new InProcessBroadcaster();
 * const a = new McpServer(info, { subscriptions: { broadcaster } });
 * const b = new McpServer(info, { subscriptions: { broadcaster } });
 * a.tool("new", {}, handler); // b's listeners hear notifications/tools/list_changed too
 * ```
 */
export class InProcessBroadcaster implements Broadcaster {
  readonly #subscribers = new Set<(event: SubscriptionEvent) => void>();

  /** How many servers (or other subscribers) receive its events. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /**
   * Delivers `event` to every subscriber, in subscription order; one that
   * throws does not keep the event from the others.
   * @throws TypeError when `event` is not a {@link SubscriptionEvent}
   */
  publish(event: SubscriptionEvent): void {
    if (!isSubscriptionEvent(event)) {
      throw new TypeError(
        'InProcessBroadcaster.publish: expected { type: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" } or { type: "resourceUpdated", uri }',
      );
    }
    for (const deliver of [...this.#subscribers]) {
      try {
        deliver(event);
      } catch {
        // A subscriber's failure is its own (servers log theirs); the others still get the event.
      }
    }
  }

  /**
   * @param deliver - receives every event published from now on
   * @returns the function that unsubscribes `deliver`
   * @throws TypeError when `deliver` is not a function
   */
  subscribe(deliver: (event: SubscriptionEvent) => void): () => void {
    if (typeof deliver !== "function") throw new TypeError("InProcessBroadcaster.subscribe: deliver must be a function");
    const own = (event: SubscriptionEvent) => deliver(event);
    this.#subscribers.add(own);
    return () => void this.#subscribers.delete(own);
  }
}

/** The event that announces a change of `list`. @internal */
export function listEvent(list: ListKind): SubscriptionEvent {
  return { type: `${list}ListChanged` as "toolsListChanged" };
}
