/**
 * The telemetry middleware itself, written against the OpenTelemetry API
 * object it is handed (the subpath loads it), so this file imports nothing
 * at run time.
 *
 * @module
 * @internal
 */
import type * as OtelApi from "@opentelemetry/api";
import { McpError } from "../../protocol/jsonrpc/errors.js";
import type { MiddlewareRequest, ServerMiddleware } from "../../server/types.js";
import { SpanAttribute } from "./attributes.js";

/** Options of `telemetry()`. */
export interface TelemetryOptions {
  /** The tracer spans come from. Default: `trace.getTracer("mcp-roundtrip")` of the global tracer provider. */
  tracer?: OtelApi.Tracer;
}

const SEALED = new Set(["tools/call", "prompts/get", "resources/read"]);
const INVALID_PARAMS = -32602;

const headerGetter: OtelApi.TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

function targetAttributes(method: string, params: Record<string, unknown>): Record<string, string> {
  if (method === "tools/call" && typeof params.name === "string") return { [SpanAttribute.toolName]: params.name };
  if (method === "prompts/get" && typeof params.name === "string") return { [SpanAttribute.promptName]: params.name };
  if (method === "resources/read" && typeof params.uri === "string") return { [SpanAttribute.resourceUri]: params.uri };
  return {};
}

function targetOf(method: string, params: Record<string, unknown>): string | undefined {
  const target = method === "resources/read" ? params.uri : params.name;
  return typeof target === "string" ? target : undefined;
}

/** The real reason behind a fixed `-32602` requestState rejection, read from its cause (never from the wire). */
function rejectionReasonOf(error: McpError): string | undefined {
  const data = error.data as { reason?: unknown } | undefined;
  if (error.code !== INVALID_PARAMS || data?.reason !== "invalid_request_state") return undefined;
  const reason = (error.cause as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" ? reason : "invalid_request_state";
}

/** Builds the middleware around an OpenTelemetry API object. @internal */
export function createTelemetry(api: typeof OtelApi, options: TelemetryOptions): ServerMiddleware {
  const tracer = options.tracer ?? api.trace.getTracer("mcp-roundtrip");
  const spans = new WeakMap<MiddlewareRequest, OtelApi.Span>();

  const start = (request: MiddlewareRequest): OtelApi.Span => {
    const { method, params } = request;
    const target = targetOf(method, params);
    const headers = request.transport?.headers;
    const parent = headers === undefined ? api.context.active() : api.propagation.extract(api.context.active(), headers, headerGetter);
    const attributes: OtelApi.Attributes = { [SpanAttribute.method]: method, ...targetAttributes(method, params) };
    const id = request.context.requestId;
    if (typeof id === "string" || typeof id === "number") attributes[SpanAttribute.requestId] = String(id);
    if (SEALED.has(method)) {
      const responses = params.inputResponses;
      const count = typeof responses === "object" && responses !== null ? Object.keys(responses).length : 0;
      const retry = (params.requestState !== undefined && params.requestState !== null) || count > 0;
      attributes[SpanAttribute.round] = retry ? 2 : 1;
      attributes[SpanAttribute.inputResponses] = count;
    }
    const span = tracer.startSpan(target === undefined ? method : `${method} ${target}`, { kind: api.SpanKind.SERVER, attributes }, parent);
    spans.set(request, span);
    return span;
  };

  return {
    onRequest(request) {
      start(request);
    },

    onSettled(request, produced, outcome) {
      // An earlier middleware that refused the request ran before this one's onRequest: start the span now.
      const span = spans.get(request) ?? start(request);
      spans.delete(request);
      if (!span.isRecording()) {
        span.end();
        return;
      }
      if (produced) {
        const result = (outcome ?? {}) as { resultType?: unknown; isError?: unknown; inputRequests?: unknown };
        const resultType = result.resultType === "input_required" ? "input_required" : "complete";
        span.setAttribute(SpanAttribute.resultType, resultType);
        if (resultType === "input_required" && typeof result.inputRequests === "object" && result.inputRequests !== null) {
          span.setAttribute(SpanAttribute.inputRequests, Object.keys(result.inputRequests).length);
        }
        if (result.isError === true) span.setAttribute(SpanAttribute.errorType, "tool_error");
      } else if (outcome instanceof McpError) {
        span.setAttribute(SpanAttribute.errorCode, outcome.code);
        span.setAttribute(SpanAttribute.errorType, String(outcome.code));
        const reason = rejectionReasonOf(outcome);
        if (reason !== undefined) span.setAttribute(SpanAttribute.rejectionReason, reason);
        // An McpError's message is what the client is told: safe to record.
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: outcome.message });
      } else {
        // What a handler threw may quote secrets: its class name only.
        span.setAttribute(SpanAttribute.errorType, outcome instanceof Error ? outcome.name : typeof outcome);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
