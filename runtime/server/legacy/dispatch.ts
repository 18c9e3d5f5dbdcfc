/**
 * Answers one 2025-era request with the same handlers as the 2026 path:
 * the 2025 schema checks it, the handler runs with the session's version
 * and capabilities, and the result goes out in 2025 shape (no
 * `resultType`, no caching hints). A declared need asks the client over the
 * session; see `back-channel.ts`.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import type { RequestContext } from "../../protocol/context.js";
import { copyToExtend } from "../../protocol/copy.js";
import { isLoggingLevel, RequestContextImpl } from "../context.js";
import { toErrorObject } from "../errors.js";
import type { RequestMeta } from "../meta.js";
import { invokeHandler, settle, type AnyHandler } from "../pipeline.js";
import { ROUTES } from "../routes.js";
import { settleInputRequired } from "./back-channel.js";
import type { LegacyHost } from "./host.js";
import { initializeResult, agreeVersion, declaredBy } from "./lifecycle.js";
import type { LegacyScope } from "./types.js";
import { assertValidLegacyRequest, assertValidLegacyResult } from "./validation.js";
import { isObject } from "../../protocol/guards.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";

/** Members a 2026 result may carry that the 2025 schema does not know. */
const MODERN_ONLY_RESULT_KEYS = ["resultType", "ttlMs", "cacheScope"] as const;

/** The 2025 protocol's own methods, answered without a handler. */
const BUILT_IN: ReadonlySet<string> = new Set(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/**
 * Answers one 2025 request. `scope.session` is the session it belongs to,
 * or `undefined` on the stateless path. Never rejects.
 * @internal
 */
export async function answerLegacyRequest(
  host: LegacyHost,
  id: JsonRpcId,
  method: string,
  message: Record<string, unknown>,
  scope: LegacyScope,
  context: RequestContext | undefined,
): Promise<JsonRpcResponse | undefined> {
  let ctx: RequestContextImpl | undefined;
  try {
    if (BUILT_IN.has(method)) return { jsonrpc: "2.0", id, result: await builtIn(host, method, message, scope) };
    const route = method === "server/discover" ? undefined : ROUTES.get(method);
    if (route === undefined) throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
    const handler = route.handler === undefined ? undefined : (host.handlers[route.handler] as AnyHandler | undefined);
    if (handler === undefined) {
      throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method} (this server does not provide it)`);
    }
    await assertValidLegacyRequest(method, message, host.maxNestingDepth);
    const params = paramsOf(message);
    ctx = new RequestContextImpl(id, method, metaOf(scope, params), context);
    ctx.logger = host.logger;
    scope.session?.track(ctx);
    const invocation = await invokeHandler(host, route, handler, params, ctx);
    let result: Record<string, unknown>;
    try {
      const raw = invocation.raw.resultType === "input_required" ? await settleInputRequired(host, handler, invocation, ctx, scope) : invocation.raw;
      result = copyToExtend(raw);
      for (const key of MODERN_ONLY_RESULT_KEYS) delete result[key];
      if (host.validateResults) await assertValidLegacyResult(method, result);
    } catch (error) {
      await settle(host, invocation.request, false, error);
      throw error;
    }
    void settle(host, invocation.request, true, result);
    if (ctx.isCancelledByClient) return undefined;
    return { jsonrpc: "2.0", id, result };
  } catch (error) {
    if (ctx?.isCancelledByClient) return undefined;
    return errorResponse(id, toErrorObject(error, method, host.logger));
  } finally {
    if (ctx !== undefined) scope.session?.untrack(ctx);
  }
}

/** The handler's params: a 2025 client has no round-trip fields to give, so any it sends are dropped. */
function paramsOf(message: Record<string, unknown>): Record<string, unknown> {
  const given = isObject(message.params) ? message.params : {};
  if (!("inputResponses" in given) && !("requestState" in given)) return given;
  const params = copyToExtend(given);
  delete params.inputResponses;
  delete params.requestState;
  return params;
}

function metaOf(scope: LegacyScope, params: Record<string, unknown>): RequestMeta {
  return {
    protocolVersion: scope.protocolVersion,
    clientCapabilities: scope.clientCapabilities,
    clientInfo: scope.clientInfo,
    raw: isObject(params._meta) ? params._meta : {},
    logLevel: scope.logLevel,
    logsWithoutLevel: true,
  };
}

async function builtIn(host: LegacyHost, method: string, message: Record<string, unknown>, scope: LegacyScope): Promise<Record<string, unknown>> {
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
  await assertValidLegacyRequest(method, message, host.maxNestingDepth);
  const params = paramsOf(message);
  switch (method) {
    case "initialize": {
      // Only the stateless path gets here: a session answers its own initialize.
      return initializeResult(host, agreeVersion(declaredBy(params).requested), false);
    }
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
