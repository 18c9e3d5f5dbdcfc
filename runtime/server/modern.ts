/**
 * The 2026-07-28 revision profile of the request path: every request
 * carries its protocol version and client capabilities in `_meta`, is
 * checked against the 2026 schema, and its result leaves stamped
 * (`resultType`, `serverInfo`, caching hints) and, when it asks for input,
 * sealed by the middlewares.
 *
 * @internal
 * @module
 */
import type { ClientCapabilities, Implementation, InputRequiredResult, LoggingLevel } from "../protocol/types.js";
import { copyToExtend } from "../protocol/copy.js";
import { isObject } from "../protocol/guards.js";
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { ClassifiedRequest } from "../protocol/message.js";
import type { HeldStream, RequestContext } from "../protocol/context.js";
import type { JsonRpcId } from "../protocol/jsonrpc/messages.js";
import { FlightTable } from "../protocol/flight-table.js";
import { principalOf } from "../state/index.js";
import { MetaKey } from "../protocol/names.js";
import { ANY_ADAPTER, adapterOf } from "../protocol/adapters.js";
import { MODERN_VERSIONS } from "../protocol/revisions.js";
import { checkRequest, type RevisionTables } from "../validate/core.js";
import { tablesOfRevision } from "../validate/revisions.js";
import { TABLES_2026 } from "../validate/tables-2026.js";
import { handlerRevisionOf } from "./adapt.js";
import { assertClientCanAnswer } from "./capabilities.js";
import { RequestContextImpl } from "./context.js";
import { internalError } from "./errors.js";
import type { RequestMeta } from "./meta.js";
import { passInputRequired } from "./middleware.js";
import type { RequestHost, RequestTracker, RevisionProfile } from "./request.js";
import type { MaybePromise } from "./types.js";
import { ROUTES, type Route } from "./routes.js";
import { answerListen, type ListenHost, type ListenTracker } from "./subscriptions/server-hub.js";
import { escalationOf } from "./tasks/escalate.js";
import { isCreatedTask } from "./tasks/records.js";

/** What a 2026-07-28 request needs of its server beyond {@link RequestHost}. @internal */
export interface ModernHost extends RequestHost {
  /** The listener streams, for `subscriptions/listen`. */
  readonly listen: ListenHost;
}

type RequestValidator = RevisionTables["validators"][string];

/** A revision's tables and its request validators by method. */
interface RequestChecks {
  readonly tables: RevisionTables;
  readonly byMethod: ReadonlyMap<string, RequestValidator>;
}

/** Each modern version's request checks, built on its first request rather than looked up per call. */
const REQUEST_CHECKS = new Map<string, RequestChecks>();

function requestChecksOf(version: string): RequestChecks {
  let checks = REQUEST_CHECKS.get(version);
  if (checks === undefined) {
    // readRequestMeta admitted only a served modern version, and every served one has generated tables.
    const tables = tablesOfRevision(version) ?? TABLES_2026;
    checks = { tables, byMethod: new Map(Object.entries(tables.methodTable).map(([method, entry]) => [method, tables.validators[entry.request]!] as const)) };
    REQUEST_CHECKS.set(version, checks);
  }
  return checks;
}

/**
 * Reads the 2026-07-28 envelope: `_meta` must carry a protocol version this
 * server speaks (else `-32022` listing `advertised`) and the client's
 * capabilities.
 * @throws McpError -32602 for a missing or malformed envelope, -32022 for an unsupported version
 * @internal
 */
function readRequestMeta(params: unknown, advertised: readonly string[]): RequestMeta {
  const meta = isObject(params) ? params._meta : undefined;
  if (!isObject(meta)) {
    throw new McpError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid params: /params/_meta is required and must be an object carrying "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}"`,
    );
  }
  const version = meta[MetaKey.protocolVersion];
  if (typeof version !== "string") {
    throw new McpError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid params: /params/_meta/${MetaKey.protocolVersion} is required and must be a string such as "${MODERN_VERSIONS[0]}"`,
    );
  }
  if (!MODERN_VERSIONS.includes(version)) {
    // A 2025 version is spoken through initialize, never through the envelope: the list tells the client what to retry with.
    throw new McpError(JsonRpcErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", { supported: [...advertised], requested: version });
  }
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isObject(capabilities)) {
    throw new McpError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid params: /params/_meta/${MetaKey.clientCapabilities} is required and must be an object (send {} when the client supports no optional capability)`,
    );
  }
  const clientInfo = meta[MetaKey.clientInfo];
  const logLevel = meta[MetaKey.logLevel];
  return {
    era: "modern",
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    raw: meta,
    // The schema check that follows rejects a level that is not one of the eight.
    logLevel: typeof logLevel === "string" ? (logLevel as LoggingLevel) : undefined,
    adapter: ANY_ADAPTER ? adapterOf(version) : undefined,
  };
}

/**
 * What `server/discover` answers: the versions served, the capabilities
 * (with the tasks extension's, when it is on) and the instructions.
 * @internal
 */
function discoverResult(host: RequestHost): Record<string, unknown> {
  const capabilities = host.capabilities();
  const result: Record<string, unknown> = {
    supportedVersions: [...host.versions],
    capabilities: host.tasks?.advertise(capabilities as Record<string, unknown>) ?? capabilities,
  };
  if (host.instructions !== undefined) result.instructions = host.instructions;
  return result;
}

/**
 * Requests being answered, by JSON-RPC id, so `notifications/cancelled` can
 * abort them: their contexts, or for a listen request whose transport holds
 * its stream (`RequestContext.holdStream`), that stream.
 * @internal
 */
export class InFlightRequests implements ListenTracker {
  /**
   * A {@link FlightTable} rather than a `Map` or a dictionary-mode object:
   * every request adds and removes one entry. V8 links each table a `Map`
   * outgrows or shrinks to its successor, so under load the chain (and every
   * context in it) outlives young-generation collections; an object keyed
   * by ever-growing integer ids is a number dictionary that hashes, grows
   * and shrinks per request (~1.5 % of a plain call's server CPU over HTTP).
   * The table's integer half is two arrays sized by the requests in flight
   * at once; `1` and `"1"` stay two requests.
   */
  private readonly requests = new FlightTable<RequestContextImpl | HeldStream>();

  track(ctx: RequestContextImpl): void {
    this.put(ctx);
  }

  untrack(ctx: RequestContextImpl): void {
    this.remove(ctx);
    ctx.dispose();
  }

  trackHeld(stream: HeldStream): void {
    this.put(stream);
  }

  untrackHeld(stream: HeldStream): void {
    this.remove(stream);
  }

  private put(request: RequestContextImpl | HeldStream): void {
    this.requests.set(request.requestId, request);
  }

  private remove(request: RequestContextImpl | HeldStream): void {
    // Another caller may reuse the id meanwhile; only remove our own entry.
    const id = request.requestId;
    if (this.requests.get(id) === request) this.requests.delete(id);
  }

  /**
   * Cancels the request with `requestId`. Ids are chosen per connection and
   * one server may serve many callers, so only the same principal (or two
   * unauthenticated callers) may cancel.
   */
  cancel(requestId: JsonRpcId, reason: string | undefined, context: RequestContext | undefined): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const target = this.requests.get(requestId);
    if (target === undefined) return;
    let same: boolean;
    try {
      const canceller = context?.authInfo === undefined ? undefined : principalOf(context.authInfo);
      // A held stream's request ran no middleware that could have resolved its principal otherwise.
      const owner = target instanceof RequestContextImpl ? target.principal : target.authInfo === undefined ? undefined : principalOf(target.authInfo);
      same = canceller === owner;
    } catch {
      // An identity that cannot be read (authInfo without a clientId) proves nothing: do not cancel.
      same = false;
    }
    if (!same) return;
    // A held stream ends as its request would have on cancellation: unanswered.
    if (target instanceof RequestContextImpl) target.cancel(reason ?? "cancelled by the client", true);
    else target.owner.gone(target);
  }
}

/** A complete result as a 2026-07-28 client gets it: stamped by the finisher, on a copy of what the handler returned. */
function completeResult(host: RequestHost, route: Route, ctx: RequestContextImpl, raw: Record<string, unknown>): Record<string, unknown> {
  return host.finisher.complete(route, ctx.method, copyToExtend(raw), handlerRevisionOf(ctx));
}

/** The 2026-07-28 profile. @internal */
export const MODERN: RevisionProfile<RequestTracker> = {
  route(host, method) {
    return host.custom.get(method) ?? ROUTES.get(method);
  },

  meta(host, params) {
    return readRequestMeta(params, host.versions);
  },

  serves(route, method, version) {
    if (route.revisions !== undefined) return route.revisions.has(version);
    // A method outside every schema is served to all; a built-in or schema method, where the revision's schema has it.
    return (route.call !== undefined && route.schema !== true && route.overrides !== true) || requestChecksOf(version).byMethod.has(method);
  },

  prepare(request: ClassifiedRequest, route: Route) {
    const params = request.params ?? {};
    if (!route.mayAskInput || params.requestState !== null) return { message: request.message, params };
    // JSON null means "no state": some clients send it rather than omitting the field.
    const without = { ...params };
    delete without.requestState;
    return { message: { ...request.message, params: without }, params: without };
  },

  check(method, message, version) {
    const { tables, byMethod } = requestChecksOf(version);
    if (byMethod.get(method)?.(message) === true) return;
    const outcome = checkRequest(tables, method, message);
    if (!outcome.ok) throw new McpError(JsonRpcErrorCode.InvalidParams, outcome.message, { issues: outcome.issues });
  },

  builtIn(host, route, _params, ctx) {
    return Promise.resolve(host.finisher.complete(route, ctx.method, discoverResult(host), handlerRevisionOf(ctx)));
  },

  // Synchronous unless a step answers with a promise (sealing with an async codec, a custom result check).
  finish(host, route, _handler, invocation, ctx) {
    const raw = invocation.raw;
    if (isCreatedTask(raw)) return raw;
    if (raw.resultType === "input_required") {
      // Before the result check: a kind the peer's revision lacks is the client's -32021, not a misfit result.
      assertClientCanAnswer(raw.inputRequests as Record<string, unknown> | undefined, ctx.clientCapabilities, ctx.protocolVersion);
      const result = host.finisher.inputRequired(route, ctx.method, raw as unknown as InputRequiredResult, handlerRevisionOf(ctx));
      return passInputRequired(host, result, invocation.request) as unknown as MaybePromise<Record<string, unknown>>;
    }
    if (raw.resultType !== undefined && raw.resultType !== "complete") {
      throw internalError(`Internal error: the ${ctx.method} handler returned resultType ${JSON.stringify(raw.resultType)}; use "complete" or "input_required"`);
    }
    refuseStrayEscalation(route, raw, invocation.params);
    if (route.checkResult !== undefined) return Promise.resolve(route.checkResult(raw)).then(() => completeResult(host, route, ctx, raw));
    return completeResult(host, route, ctx, raw);
  },

  stream(host, route, params, ctx: RequestContextImpl) {
    if (ctx.method !== "subscriptions/listen") return undefined;
    return answerListen((host as ModernHost).listen, route, params.notifications, ctx);
  },
};

/**
 * A `runAsTask` marker from a tool the task route did not take (it declares
 * no `task`): a server bug, said as such.
 * @throws McpError -32603 naming the option to set
 * @internal
 */
export function refuseStrayEscalation(route: Route, raw: Record<string, unknown>, params: Record<string, unknown>): void {
  if (!route.taskAware || escalationOf(raw) === undefined) return;
  throw internalError(
    `Internal error: tool ${JSON.stringify(params.name)} returned runAsTask(...) but does not declare task support; ` +
      'register it with task: { support: "optional" | "required", start: "escalate" }',
  );
}
