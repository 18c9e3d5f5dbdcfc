/**
 * The 2025 revision profile of the request path: the same handlers as the
 * 2026 path, under the version and capabilities the session's handshake
 * agreed (or, statelessly, what the request says), checked against the
 * 2025 schema, the result sent in 2025 shape (no `resultType`, no caching
 * hints). A declared need asks the client over the session; see
 * `back-channel.ts`. Loaded with the 2025 validators on the first 2025
 * request, so a server that only meets 2026-07-28 clients never imports it.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { copyToExtend } from "../../protocol/copy.js";
import { isObject } from "../../protocol/guards.js";
import { LEGACY_DEFAULT_VERSION } from "../../protocol/revisions.js";
import { checkRequest, checkResult } from "../../validate/core.js";
import { TABLES_2025 } from "../../validate/tables-2025.js";
import { isLoggingLevel } from "../context.js";
import { internalError } from "../errors.js";
import type { Invocation, RequestHost, RevisionProfile } from "../request.js";
import type { RequestContextImpl } from "../context.js";
import { route, ROUTES, type Route } from "../routes.js";
import { refuseStrayEscalation } from "../modern.js";
import { settleInputRequired } from "./back-channel.js";
import type { LegacyHost } from "./host.js";
import { initializeResult, agreeVersion, declaredBy } from "./lifecycle.js";
import type { LegacyScope } from "./types.js";

/** Members a 2026 result may carry that the 2025 schema does not know. */
const MODERN_ONLY_RESULT_KEYS = ["resultType", "ttlMs", "cacheScope"] as const;

/** The 2025 protocol's own methods, answered without a handler. */
const BUILT_IN: ReadonlyMap<string, Route> = new Map(
  ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"].map((method) => [method, route(undefined, "", false)] as const),
);

/** The generated validator of each 2025 request, looked up once per method. */
const REQUEST_VALIDATORS = new Map(Object.entries(TABLES_2025.methodTable).map(([method, entry]) => [method, TABLES_2025.validators[entry.request]!] as const));

/** The handler's params: a 2025 client has no round-trip fields to give, so any it sends are dropped. */
function paramsOf(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = params ?? {};
  if (!("inputResponses" in given) && !("requestState" in given)) return given;
  const copy = copyToExtend(given);
  delete copy.inputResponses;
  delete copy.requestState;
  return copy;
}

/** The 2025 profile, for a request of a session or one answered statelessly. @internal */
export const LEGACY: RevisionProfile<LegacyScope> = {
  route(host, method) {
    // A custom method, unless the 2025 schema has one of that name (the tasks extension's tasks/get is not 2025's);
    // a schema method's route, only where the 2025 schema defines the method (else -32601, as for a built-in).
    const custom = host.custom.get(method);
    const in2025 = Object.hasOwn(TABLES_2025.methodTable, method);
    if (custom !== undefined && custom.schema === true) return in2025 ? custom : undefined;
    if (custom !== undefined && (custom.overrides === true || !in2025)) return custom;
    const found = BUILT_IN.get(method) ?? ROUTES.get(method);
    // server/discover and subscriptions/listen are 2026-07-28 methods: a 2025 client gets -32601 for them.
    return found === undefined || (found.handler === undefined && !BUILT_IN.has(method)) ? undefined : found;
  },

  meta(_host, params, scope) {
    return {
      era: "legacy",
      protocolVersion: scope.protocolVersion ?? LEGACY_DEFAULT_VERSION,
      clientCapabilities: scope.clientCapabilities,
      clientInfo: scope.clientInfo,
      raw: isObject(params._meta) ? params._meta : {},
      logLevel: scope.logLevel,
      logsWithoutLevel: true,
    };
  },

  serves(route, _method, version) {
    // The schema's part was decided by route(): what remains is a custom method's own list.
    return route.revisions === undefined || route.revisions.has(version);
  },

  prepare(request) {
    return { message: request.message, params: paramsOf(request.params) };
  },

  check(method, message) {
    const validator = REQUEST_VALIDATORS.get(method);
    if (validator?.(message) === true) return;
    const outcome = checkRequest(TABLES_2025, method, message);
    if (!outcome.ok) throw new McpError(JsonRpcErrorCode.InvalidParams, outcome.message, { issues: outcome.issues });
  },

  builtIn(host, _route, params, ctx, scope) {
    return Promise.resolve(builtIn(host as LegacyHost, ctx.method, params, scope));
  },

  // Synchronous for a complete result without a custom result check (a plain call): no promise, no turn.
  finish(host, route, handler, invocation, ctx, scope) {
    if (invocation.raw.resultType === "input_required") {
      return settleInputRequired({ host: host as LegacyHost, handler, invocation, ctx, scope }).then((raw) => legacyResult(host, route, ctx, invocation, raw));
    }
    return legacyResult(host, route, ctx, invocation, invocation.raw);
  },
};

/** A complete result as a 2025 client gets it: the stray escalation refused, the result checked, the 2026-only keys dropped. */
function legacyResult(
  host: RequestHost,
  route: Route,
  ctx: RequestContextImpl,
  invocation: Invocation,
  raw: Record<string, unknown>,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  refuseStrayEscalation(route, raw, invocation.params);
  if (route.checkResult !== undefined) return Promise.resolve(route.checkResult(raw)).then(() => legacyWire(host, ctx, route, raw));
  return legacyWire(host, ctx, route, raw);
}

function legacyWire(host: RequestHost, ctx: RequestContextImpl, route: Route, raw: Record<string, unknown>): Record<string, unknown> {
  const result = copyToExtend(raw);
  for (const key of MODERN_ONLY_RESULT_KEYS) delete result[key];
  if (host.validateResults && route.result !== "") {
    const outcome = checkResult(TABLES_2025, ctx.method, result);
    if (!outcome.ok) throw internalError(`Internal error: the ${ctx.method} handler returned an invalid result for a 2025 client. ${outcome.message}`);
  }
  return result;
}

function builtIn(host: LegacyHost, method: string, params: Record<string, unknown>, scope: LegacyScope): Record<string, unknown> {
  const session = scope.session;
  const subscribing = method === "resources/subscribe" || method === "resources/unsubscribe";
  if (subscribing && !isObject((host.capabilities() as Record<string, unknown>).resources)) {
    throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method} (this server offers no resources)`);
  }
  if (subscribing && session === undefined) {
    throw new McpError(
      JsonRpcErrorCode.MethodNotFound,
      `Method not found: ${method} needs a session to send updates on; this server answers 2025 clients statelessly (legacy: "stateless")`,
    );
  }
  switch (method) {
    case "initialize":
      // Only the stateless path gets here: a session answers its own initialize.
      return initializeResult(host, agreeVersion(declaredBy(params).requested), false);
    case "logging/setLevel":
      if (isLoggingLevel(params.level)) session?.setLogLevel(params.level);
      return {};
    case "resources/subscribe":
      session!.subscribe(params.uri as string);
      return {};
    case "resources/unsubscribe":
      session!.unsubscribe(params.uri as string);
      return {};
    default:
      return {}; // ping
  }
}
