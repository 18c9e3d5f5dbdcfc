/**
 * A mixed fleet's change events: the official SDK's `ServerEventBus` (what
 * `createMcpHandler({ bus })` publishes to and its listen streams read)
 * over an mcp-roundtrip `Broadcaster`, so a change on either kind of
 * server reaches the `subscriptions/listen` streams of both.
 */
import { isSubscriptionEvent, type Broadcaster, type SubscriptionEvent } from "../../server/subscriptions/broadcaster.js";

/** The official SDK's change event (`ServerEvent` of `@modelcontextprotocol/server` 2.4.0), declared here so nothing of theirs is imported. */
export type OfficialServerEvent = (
  | {
      /** The tool list changed. */
      kind: "tools_list_changed";
    }
  | {
      /** The prompt list changed. */
      kind: "prompts_list_changed";
    }
  | {
      /** The resource list changed. */
      kind: "resources_list_changed";
    }
  | {
      /** One resource changed; subscribers of `uri` are told. */
      kind: "resource_updated";
      /** The resource that changed. */
      uri: string;
    }
) & {
  /** Extra notification params the official SDK may attach; not carried across to this SDK's streams. */
  params?: Record<string, unknown>;
};

/** The official SDK's `ServerEventBus` shape: what `createMcpHandler`'s `bus` option takes. */
export interface OfficialServerEventBus {
  /** Announces a change to every listener, on this process and (through the broadcaster) on the others. */
  publish(event: OfficialServerEvent): void;
  /**
   * Calls `listener` for every change published anywhere on the broadcaster.
   *
   * @returns a function that stops the calls
   */
  subscribe(listener: (event: OfficialServerEvent) => void): () => void;
}

const TO_OURS: Readonly<Record<string, SubscriptionEvent["type"]>> = Object.freeze({
  tools_list_changed: "toolsListChanged",
  prompts_list_changed: "promptsListChanged",
  resources_list_changed: "resourcesListChanged",
  resource_updated: "resourceUpdated",
});

function toOfficial(event: SubscriptionEvent): OfficialServerEvent {
  switch (event.type) {
    case "toolsListChanged":
      return { kind: "tools_list_changed" };
    case "promptsListChanged":
      return { kind: "prompts_list_changed" };
    case "resourcesListChanged":
      return { kind: "resources_list_changed" };
    default:
      return { kind: "resource_updated", uri: event.uri };
  }
}

/**
 * Wraps `broadcaster` as an official `ServerEventBus`. Give it to
 * `createMcpHandler(factory, { bus })` and the same broadcaster to
 * `new McpServer(info, { subscriptions: { broadcaster } })`: a tool
 * registered on ours reaches their listeners, `handler.notify.toolsChanged()`
 * reaches ours. Over a `RedisBroadcaster` this spans processes.
 *
 * @param broadcaster - the broadcaster both kinds of server share
 * @param options - `onError` receives events it could not translate or publish (default: dropped silently)
 * @returns the bus
 * @throws TypeError when `broadcaster` lacks `publish` / `subscribe`
 * @example
 * ```ts
 * const broadcaster = new InProcessBroadcaster();
 * const handler = createMcpHandler(factory, { bus: officialEventBus(broadcaster) });
 * const ours = new McpServer(info, { subscriptions: { broadcaster } });
 * ```
 */
export function officialEventBus(broadcaster: Broadcaster, options: { onError?: (error: Error) => void } = {}): OfficialServerEventBus {
  if (typeof broadcaster !== "object" || broadcaster === null || typeof broadcaster.publish !== "function" || typeof broadcaster.subscribe !== "function") {
    throw new TypeError("officialEventBus: expected a Broadcaster with publish(event) and subscribe(deliver), e.g. new InProcessBroadcaster()");
  }
  const report = (error: Error) => options.onError?.(error);
  return {
    publish(event) {
      const type = typeof event === "object" && event !== null ? TO_OURS[(event as { kind?: string }).kind ?? ""] : undefined;
      const ours = type === "resourceUpdated" ? { type, uri: (event as { uri?: unknown }).uri } : type === undefined ? undefined : { type };
      if (!isSubscriptionEvent(ours)) {
        report(new Error(`officialEventBus: ignored an event that is no change this SDK carries: ${JSON.stringify(event)?.slice(0, 200)}`));
        return;
      }
      try {
        const pending = broadcaster.publish(ours);
        if (pending instanceof Promise) pending.catch((error: unknown) => report(error instanceof Error ? error : new Error(String(error))));
      } catch (error) {
        report(error instanceof Error ? error : new Error(String(error)));
      }
    },
    subscribe(listener) {
      if (typeof listener !== "function") throw new TypeError("officialEventBus.subscribe: listener must be a function");
      return broadcaster.subscribe((event) => listener(toOfficial(event)));
    },
  };
}
