/**
 * The shapes of `client.subscribe(...)`: what it asks for, what it delivers
 * and how it reconnects. Apart from the subscription and its lazily loaded
 * loop, so both can name them without importing each other.
 *
 * @module
 */

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
  | {
      /** The server opened (or reopened) the stream and confirmed what it will send. */
      readonly type: "acknowledged";
      /** What the server confirmed it will send on this stream. */
      readonly notifications: SubscriptionRequest;
      /** 0 for the first stream, then one more per reopened stream: above 0, changes may have been missed. */
      readonly reconnects: number;
    }
  | {
      /** A list changed: list it again to see how. */
      readonly type: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";
    }
  | {
      /** A subscribed resource changed: read it again. */
      readonly type: "resourceUpdated";
      /** The resource that changed. */
      readonly uri: string;
    };

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
