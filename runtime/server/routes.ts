import type { ServerHandlers } from "./types.js";

/** How the server answers one method. @internal */
export interface Route {
  /** The handler that answers it; `undefined` for built-in methods. */
  readonly handler: keyof ServerHandlers | undefined;
  /** Schema definition of the complete result. */
  readonly result: string;
  /** Whether complete results carry `ttlMs`/`cacheScope`. */
  readonly cacheable: boolean;
  /** Whether the method may answer `input_required` (MRTR's supported requests). */
  readonly mayAskInput: boolean;
  /** Whether the request is checked against its revision's schema before it is answered (the task methods check their own params). */
  readonly checked: boolean;
  /** Whether a tool's task declaration can send the call to the task engine (`tools/call`). */
  readonly taskAware: boolean;
  /** A custom route that replaces one the protocol defines (`setRequestHandler` with `override`). */
  readonly overrides?: boolean;
  /** A custom method's own handler (`setRequestHandler`), in place of a `ServerHandlers` one. */
  readonly call?: (params: unknown, ctx: unknown) => unknown;
  /** A custom method's params check: resolves to the params its handler gets, or throws -32602. */
  readonly checkParams?: (params: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** A custom method's result check: throws -32603 when the result does not fit its schema. */
  readonly checkResult?: (result: Record<string, unknown>) => Promise<void>;
  /**
   * A route registered for a method a served revision's schema defines
   * (`setRequestHandler` without schemas of its own): served, like a
   * built-in, only to peers whose revision's schema defines the method.
   */
  readonly schema?: boolean;
  /** The revisions a custom method is served to (`setRequestHandler`'s `revisions`); every one when absent. */
  readonly revisions?: ReadonlySet<string>;
}

/** A route; `checked` unless said otherwise, task-aware only for `tools/call`. @internal */
export function route(
  handler: keyof ServerHandlers | undefined,
  result: string,
  cacheable: boolean,
  mayAskInput = false,
  flags: { checked?: boolean; taskAware?: boolean } = {},
): Route {
  return Object.freeze({ handler, result, cacheable, mayAskInput, checked: flags.checked ?? true, taskAware: flags.taskAware ?? false });
}

/** The built-in routes, as data whose methods are a type too ({@link BuiltInMethod}). */
const BUILT_IN = [
  ["server/discover", route(undefined, "DiscoverResult", true)],
  ["tools/list", route("onListTools", "ListToolsResult", true)],
  ["tools/call", route("onCallTool", "CallToolResult", false, true, { taskAware: true })],
  ["prompts/list", route("onListPrompts", "ListPromptsResult", true)],
  ["prompts/get", route("onGetPrompt", "GetPromptResult", false, true)],
  ["resources/list", route("onListResources", "ListResourcesResult", true)],
  ["resources/templates/list", route("onListResourceTemplates", "ListResourceTemplatesResult", true)],
  ["resources/read", route("onReadResource", "ReadResourceResult", true, true)],
  ["completion/complete", route("onComplete", "CompleteResult", false)],
  // Built in: answered by the server's listener streams (subscriptions/streams.ts), only when it ends them.
  ["subscriptions/listen", route(undefined, "SubscriptionsListenResult", false)],
] as const;

/** A request method the server answers with a route of its own (replaced only with `override: true`). */
export type BuiltInMethod = (typeof BUILT_IN)[number][0];

/**
 * Every request method the server answers. A `Map` rather than an object so
 * that a method named `__proto__` or `toString` is just unknown. Each is
 * served to a peer only when its revision's schema defines the method.
 * @internal
 */
export const ROUTES: ReadonlyMap<string, Route> = new Map(BUILT_IN);
