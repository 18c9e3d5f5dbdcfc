/**
 * The contract of a revision adapter: how a protocol revision with breaking
 * changes maps its wire shapes to and from the SDK's model (the shapes of the
 * newest revision served without an adapter, which handlers are written
 * against). One file per such revision, `runtime/adapters/<rev>.ts`, default-
 * exports `defineAdapter({...})`; codegen indexes the files
 * (generated/adapters.ts) and serves the revision once its file exists, and
 * the server applies it to every message of a peer that speaks that revision
 * (docs/codegen.md, "When the revision breaks").
 *
 * A hook maps one message of one method and returns the mapped value (a new
 * object, or the one it was given, changed); a method without a hook passes
 * as it is. Hooks run after the incoming message passed the wire revision's
 * schema, and their outgoing results are checked against it again (with
 * result validation on), so an adapter that misses a field is a -32603 that
 * names it, not a malformed answer.
 *
 * @internal
 * @module
 */
import { JsonRpcErrorCode, McpError } from "./jsonrpc/errors.js";

/** A JSON object as it travels: a request's params, a result, a notification's params. */
export type WireObject = Record<string, unknown>;

/** The request a hook maps a message of. */
export interface AdapterExchange {
  /** The revision the peer speaks (the adapter's own, e.g. `"2027-01-01"`). */
  readonly revision: string;
  /** The request's method, e.g. `"tools/list"`. */
  readonly method: string;
  /** The request's params in the model's shape (after any `requests` hook mapped them). */
  readonly params: Readonly<WireObject>;
  /** The request's params as the peer sent them, in the wire's shape (what a `requests` hook mapped from). */
  readonly wireParams: Readonly<WireObject>;
  /**
   * For `tools/call`: the called tool as the model lists it (its `tools/list` entry, `outputSchema`
   * and all), looked up by the server once per adapted call, so a hook can map by what the tool
   * declares. `undefined` for other methods, for a tool the server does not know, and for a
   * low-level `Server`, which has no registry to look the tool up in.
   */
  readonly tool?: Readonly<WireObject> | undefined;
}

/**
 * What a `requests` hook throws to refuse a request the model could not express (a wire field
 * asking for something the server does not offer): the peer gets JSON-RPC `-32602` with
 * `"Invalid params: " + message` and `data`. Anything else a hook throws is a `-32603`.
 *
 * @param message - what is wrong and what to send instead, naming the field (e.g. `/params/requestedOutputs/1`)
 * @param data - structured detail for the peer
 * @returns the error to throw
 * @example
 * ```ts
 * throw invalidParams(`/params/requestedOutputs/0 asks for ${selector}, which the tool does not declare`, { selector });
 * ```
 */
export function invalidParams(message: string, data?: Readonly<Record<string, unknown>>): McpError {
  return new McpError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${message}`, data);
}

/** Maps one message: `value` in, its counterpart out. */
export type AdapterHook = (value: WireObject, exchange: AdapterExchange) => WireObject;

/** Hooks by method; `"*"` maps every method that has no hook of its own. */
export type AdapterHooks = Readonly<Record<string, AdapterHook>>;

/** What a revision's adapter file passes to {@link defineAdapter}. */
export interface AdapterDefinition {
  /**
   * The revision whose shapes the hooks map to and from: the SDK's model when the adapter was
   * written (what `--add-revision` printed it diffed against, e.g. `"2026-07-28"`). A handler's
   * results are checked against this revision's schema before the adapter maps them.
   */
  readonly model: string;
  /** Wire → model: the params of each incoming request, by method (checked against the wire schema first). */
  readonly requests?: AdapterHooks;
  /**
   * Model → wire: each outgoing result, by method: complete and `input_required` results alike
   * (the input requests travel inside the latter), built-in ones (`server/discover`, listings) included.
   */
  readonly results?: AdapterHooks;
  /** Model → wire: the params of each notification sent while a request is answered (progress, log messages), by notification method. */
  readonly notifications?: AdapterHooks;
}

/** A checked, frozen adapter: what {@link defineAdapter} returns and the runtime applies. */
export interface RevisionAdapter extends AdapterDefinition {
  readonly requests: AdapterHooks;
  readonly results: AdapterHooks;
  readonly notifications: AdapterHooks;
}

const REVISION = /^\d{4}-\d{2}-\d{2}$/;
const EMPTY: AdapterHooks = Object.freeze({});

function hooks(definition: AdapterDefinition, kind: "requests" | "results" | "notifications"): AdapterHooks {
  const table = definition[kind];
  if (table === undefined) return EMPTY;
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    throw new TypeError(`defineAdapter: "${kind}" expected an object of hooks by method, got ${Array.isArray(table) ? "an array" : typeof table}`);
  }
  const checked: Record<string, AdapterHook> = Object.create(null);
  for (const [method, hook] of Object.entries(table)) {
    if (typeof hook !== "function")
      throw new TypeError(`defineAdapter: ${kind}[${JSON.stringify(method)}] expected a function (value, exchange) => value, got ${typeof hook}`);
    checked[method] = hook;
  }
  return Object.freeze(checked);
}

/**
 * Declares a revision's adapter: the default export of `runtime/adapters/<rev>.ts`.
 *
 * @param definition - the model revision and the hooks, by direction and method.
 * @returns the adapter, checked and frozen.
 * @throws TypeError when `model` is not a revision name or a hook is not a function.
 * @example
 * ```ts
 * // runtime/adapters/2027-01-01.ts: 2027-01-01 renamed Tool.title to displayName.
 * import { defineAdapter } from "../protocol/adapter.js";
 *
 * export default defineAdapter({
 *   model: "2026-07-28",
 *   results: {
 *     "tools/list": (result) => ({
 *       ...result,
 *       tools: (result.tools as Array<Record<string, unknown>>).map(({ title, ...tool }) => (title === undefined ? tool : { ...tool, displayName: title })),
 *     }),
 *   },
 * });
 * ```
 */
export function defineAdapter(definition: AdapterDefinition): RevisionAdapter {
  if (typeof definition !== "object" || definition === null)
    throw new TypeError(`defineAdapter: expected { model, requests?, results?, notifications? }, got ${String(definition)}`);
  if (typeof definition.model !== "string" || !REVISION.test(definition.model)) {
    throw new TypeError(
      `defineAdapter: "model" expected the revision the hooks map to and from, e.g. "2026-07-28" (what --add-revision diffed against), got ${JSON.stringify(definition.model)}`,
    );
  }
  return Object.freeze({
    model: definition.model,
    requests: hooks(definition, "requests"),
    results: hooks(definition, "results"),
    notifications: hooks(definition, "notifications"),
  });
}

/** An adapter bound to the request it applies to: what a server keeps on the request's context. @internal */
export interface AdaptedRequest {
  readonly adapter: RevisionAdapter;
  readonly exchange: AdapterExchange;
}

/**
 * A notification sent while an adapted request is answered, in the wire's shape.
 * @throws whatever the notification's hook throws
 * @internal
 */
export function notificationToWire<N extends { method: string; params?: WireObject | undefined }>(adapted: AdaptedRequest, notification: N): N {
  const hook = hookOf(adapted.adapter.notifications, notification.method);
  return hook === undefined ? notification : { ...notification, params: hook(notification.params ?? {}, adapted.exchange) };
}

/** The hook of `method` in `table`: its own, else `"*"`, else none. @internal */
export function hookOf(table: AdapterHooks, method: string): AdapterHook | undefined {
  return table[method] ?? table["*"];
}
