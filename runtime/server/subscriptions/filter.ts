/**
 * The `notifications` filter of `subscriptions/listen`: which types exist,
 * which a server honours, what it acknowledges, what a listener receives.
 *
 * @module
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { ServerCapabilities, SubscriptionFilter } from "../../protocol/types.js";
import type { SubscriptionEvent } from "./broadcaster.js";
import { isObject } from "../../protocol/guards.js";

/** One notification type a `subscriptions/listen` request can opt in to (the keys of its filter). */
export type SubscriptionType = "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" | "resourceSubscriptions";

/** Every subscription type of the 2026-07-28 revision, in the spec's order. */
export const SUBSCRIPTION_TYPES: readonly SubscriptionType[] = Object.freeze([
  "toolsListChanged",
  "promptsListChanged",
  "resourcesListChanged",
  "resourceSubscriptions",
]);

const KNOWN: ReadonlySet<string> = new Set(SUBSCRIPTION_TYPES);

/**
 * What one listener agreed to receive: the acknowledged filter, in the form
 * delivery checks fastest.
 * @internal
 */
export interface AgreedFilter extends Delivery {
  /** The filter as acknowledged on the wire. */
  readonly acknowledged: SubscriptionFilter;
}

/** What a listener receives, once its acknowledgement is out. @internal */
export interface Delivery {
  readonly tools: boolean;
  readonly prompts: boolean;
  readonly resources: boolean;
  /** The resource URIs whose updates it receives; `undefined` for none. */
  readonly uris: ReadonlySet<string> | undefined;
}

/** The deliveries without resource URIs, one per combination of list types: most listeners share one. */
const SHARED_DELIVERIES: readonly Delivery[] = Array.from({ length: 8 }, (_, bits) =>
  Object.freeze({ tools: (bits & 1) !== 0, prompts: (bits & 2) !== 0, resources: (bits & 4) !== 0, uris: undefined }),
);

/**
 * What a listener that agreed to `filter` keeps for as long as it is open:
 * a shared object unless it names resource URIs (the acknowledgement is
 * not kept once sent).
 * @internal
 */
export function deliveryOf(filter: AgreedFilter): Delivery {
  if (filter.uris !== undefined) return { tools: filter.tools, prompts: filter.prompts, resources: filter.resources, uris: filter.uris };
  return SHARED_DELIVERIES[(filter.tools ? 1 : 0) | (filter.prompts ? 2 : 0) | (filter.resources ? 4 : 0)]!;
}

/**
 * Checks a request's filter for types this SDK does not know and intersects
 * it with what the server honours. Known types the server does not honour
 * are left out of the acknowledgement, as the spec says; unknown ones are a
 * client bug (or a newer revision) and get a clear error rather than
 * silence.
 *
 * @throws McpError -32602 naming the unknown type(s) and listing the known ones
 * @internal
 */
export function agreeFilter(requested: unknown, honoured: ReadonlySet<SubscriptionType>): AgreedFilter {
  const filter = isObject(requested) ? requested : {};
  const unknown = Object.keys(filter).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) {
    throw new McpError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid params: unknown subscription type${unknown.length > 1 ? "s" : ""} ${unknown.map((key) => JSON.stringify(key)).join(", ")} ` +
        `in params.notifications; this server knows ${SUBSCRIPTION_TYPES.join(", ")}. Remove it and listen again.`,
      { reason: "unknown_subscription_type", unknown, known: [...SUBSCRIPTION_TYPES] },
    );
  }
  const acknowledged: SubscriptionFilter = {};
  const wants = (type: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged"): boolean => {
    const on = filter[type] === true && honoured.has(type);
    if (on) acknowledged[type] = true;
    return on;
  };
  const tools = wants("toolsListChanged");
  const prompts = wants("promptsListChanged");
  const resources = wants("resourcesListChanged");
  let uris: Set<string> | undefined;
  const asked = filter.resourceSubscriptions;
  if (Array.isArray(asked) && asked.length > 0 && honoured.has("resourceSubscriptions")) {
    uris = new Set(asked.filter((uri): uri is string => typeof uri === "string"));
    acknowledged.resourceSubscriptions = [...uris];
  }
  return { tools, prompts, resources, uris, acknowledged };
}

/** True when a listener that agreed to `filter` receives `event`. @internal */
export function receives(filter: Delivery, event: SubscriptionEvent): boolean {
  switch (event.type) {
    case "toolsListChanged":
      return filter.tools;
    case "promptsListChanged":
      return filter.prompts;
    case "resourcesListChanged":
      return filter.resources;
    case "resourceUpdated":
      return filter.uris?.has(event.uri) === true;
    default:
      return false;
  }
}

/** The notification method that carries `event`. @internal */
export function methodOf(event: SubscriptionEvent): string {
  switch (event.type) {
    case "toolsListChanged":
      return "notifications/tools/list_changed";
    case "promptsListChanged":
      return "notifications/prompts/list_changed";
    case "resourcesListChanged":
      return "notifications/resources/list_changed";
    default:
      return "notifications/resources/updated";
  }
}

/**
 * What a low-level `Server` honours when its options name nothing: the
 * types whose feature it advertises (`tools` → `toolsListChanged`,
 * `resources` → `resourcesListChanged` and `resourceSubscriptions`, …).
 * @internal
 */
export function honouredByCapabilities(capabilities: ServerCapabilities): Set<SubscriptionType> {
  const honoured = new Set<SubscriptionType>();
  if (isObject(capabilities.tools)) honoured.add("toolsListChanged");
  if (isObject(capabilities.prompts)) honoured.add("promptsListChanged");
  if (isObject(capabilities.resources)) {
    honoured.add("resourcesListChanged");
    honoured.add("resourceSubscriptions");
  }
  return honoured;
}
