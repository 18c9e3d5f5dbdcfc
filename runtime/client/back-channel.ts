/**
 * The 2025-era back channel: requests a handshake-era server sends the
 * client (on a call's response stream, the HTTP GET stream, or the stdio
 * pipe) answered by the same callbacks (`onElicit`, …, `onInputRequest`)
 * that answer a modern server's `inputRequests`.
 *
 * @internal
 */
import type { JsonRpcErrorCode } from "../protocol/jsonrpc/errors.js";
import type { errorResponse } from "../protocol/jsonrpc/responses.js";
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { InputRequestFailed } from "./errors.js";
import type { ClientTransport } from "../protocol/contracts.js";
import type { RevisionTables, ValidationResult } from "../validate/core.js";
import type { Answerers, InputRequestContext } from "./callbacks.js";
import type { InputResponseInvalid } from "./answer-errors.js";
import type { JsonObject } from "./protocol.js";
import type { withoutCallback } from "./kinds.js";

/**
 * What this lazily loaded module (2025 servers only) borrows from the
 * client's main modules, handed over rather than imported, so a bundle keeps
 * those in its main chunk and this one imports nothing it shares.
 *
 * @internal
 */
export interface BackChannelKit {
  readonly JsonRpcErrorCode: typeof JsonRpcErrorCode;
  readonly errorResponse: typeof errorResponse;
  readonly InputRequestFailed: typeof InputRequestFailed;
  readonly withoutCallback: typeof withoutCallback;
  readonly InputResponseInvalid: typeof InputResponseInvalid;
}

/** The 2025-11-25 tables, loaded on the first request a server sends: a modern-only client never pays for them. */
let tables2025: Promise<{ checkParams: (tables: RevisionTables, method: string, params: unknown) => ValidationResult; tables: RevisionTables }> | undefined;

function loadTables() {
  tables2025 ??= Promise.all([import("../validate/core.js"), import("../validate/tables-2025.js")]).then(([core, revision]) => ({
    checkParams: core.checkParams,
    tables: revision.TABLES_2025,
  }));
  return tables2025;
}

function paramsCheck(method: string, params: unknown): Promise<ValidationResult> {
  return loadTables().then(({ checkParams, tables }) => checkParams(tables, method, params));
}

/**
 * Installs the answering of a 2025-era server's requests on `transport`,
 * where it can carry them, and starts loading the 2025 validators, so the
 * server's first request does not wait for them.
 *
 * @returns the transport the connection should send through: `transport`
 *   itself, or (where server requests arrive) a view of it whose calls throw
 *   the client's own error when a question asked during them could not be
 *   answered (see {@link failingCalls}).
 * @internal
 */
export function installBackChannel(transport: ClientTransport, answerers: Answerers, kit: BackChannelKit): ClientTransport {
  if (transport.setServerRequestHandler === undefined) return transport;
  const calls = new Map<JsonRpcId, CallRecord>();
  transport.setServerRequestHandler((request, context) =>
    answerServerRequest(request, answerers, kit, (failure) => blame(calls, context?.relatedRequestId, failure)),
  );
  loadTables().catch(() => {
    // Reported by the first request that needs them.
  });
  return failingCalls(transport, calls);
}

/** A call in flight through the back channel's view, and the first question of it the client could not answer. */
interface CallRecord {
  failure: (InputResponseInvalid | InputRequestFailed) | undefined;
}

/**
 * Pins a failed answer on the call it belongs to: the one whose response
 * stream carried the question when the wire says (HTTP), else every call in
 * flight (over stdio a 2025 server's question names no call; with one call
 * in flight, that is the one).
 */
function blame(calls: Map<JsonRpcId, CallRecord>, related: JsonRpcId | undefined, failure: InputResponseInvalid | InputRequestFailed): void {
  const owner = related === undefined ? undefined : calls.get(related);
  for (const record of owner === undefined ? calls.values() : [owner]) record.failure ??= failure;
}

/**
 * A 2025 server's question is a request of its own, so a callback that
 * fails, or an answer that does not fit, cannot reject the call directly:
 * the server is told with a neutral error response and ends the call its
 * own way (a JSON-RPC error, or a result such as a tool's `isError` text).
 * This view of the transport remembers each call's failed question and,
 * once the call ends, throws the client's own `InputResponseInvalid` or
 * `InputRequestFailed` with the server's result attached (`serverResult`),
 * so the caller sees the same typed error from either generation. Every
 * other member is the transport's own, bound to it.
 */
function failingCalls(transport: ClientTransport, calls: Map<JsonRpcId, CallRecord>): ClientTransport {
  const request: ClientTransport["request"] = async (message, options) => {
    const record: CallRecord = { failure: undefined };
    calls.set(message.id, record);
    let response: JsonRpcResponse;
    try {
      response = await transport.request(message, options);
    } catch (error) {
      if (record.failure === undefined) throw error;
      throw record.failure;
    } finally {
      calls.delete(message.id);
    }
    const failure = record.failure;
    if (failure === undefined) return response;
    const result = (response as { result?: unknown }).result;
    if (typeof result === "object" && result !== null) failure.serverResult = result as Record<string, unknown>;
    throw failure;
  };
  return new Proxy(transport, {
    get(target, property) {
      if (property === "request") return request;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const reply = (request: JsonRpcRequest, result: JsonObject): JsonRpcResponse => ({ jsonrpc: "2.0", id: request.id, result });

/**
 * One answer: `ping` at once; a method with a callback after its params
 * pass the 2025-11-25 schema; anything else `-32601`. Never rejects.
 *
 * @internal
 */
async function answerServerRequest(
  request: JsonRpcRequest,
  answerers: Answerers,
  kit: BackChannelKit,
  failed: (failure: InputResponseInvalid | InputRequestFailed) => void,
): Promise<JsonRpcResponse> {
  const { JsonRpcErrorCode, errorResponse, InputRequestFailed } = kit;
  // What the server reads: neutral, since a server may show it to the model or the user (a tool's isError text).
  // The advice for the host's developer travels in the error the call throws.
  const couldNot = (reason: string, failure: InputResponseInvalid | InputRequestFailed, extra?: JsonObject): JsonRpcResponse => {
    failed(failure);
    return errorResponse(request.id, {
      code: JsonRpcErrorCode.InternalError,
      message: `The client could not answer ${request.method}.`,
      data: { reason, ...extra },
    });
  };
  const refuse = (code: number, message: string): JsonRpcResponse => errorResponse(request.id, { code, message });
  if (request.method === "ping") return reply(request, {});
  const answerer = answerers[request.method];
  if (answerer === undefined) {
    const missing = kit.withoutCallback(request.method);
    return refuse(
      JsonRpcErrorCode.MethodNotFound,
      "options" in missing
        ? `Method not found: this client was connected without ${missing.options}, so it cannot answer ${request.method}`
        : `Method not found: this client does not handle ${request.method}`,
    );
  }
  const { answer, option } = answerer;
  const params = request.params ?? {};
  let checked: ValidationResult;
  try {
    checked = await paramsCheck(request.method, params);
  } catch (error) {
    return refuse(JsonRpcErrorCode.InternalError, `The client could not check the request: ${String(error)}`);
  }
  if (!checked.ok) return refuse(JsonRpcErrorCode.InvalidParams, `Invalid params: ${checked.message}`);
  const controller = new AbortController();
  const context: InputRequestContext = { key: undefined, method: request.method, signal: controller.signal };
  try {
    const result = (await answer(params as never, context)) as unknown;
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      const failure = new InputRequestFailed(
        undefined,
        request.method,
        `The ${option} callback returned ${result === null ? "null" : typeof result}; it must return the result object for ${request.method}. ` +
          `The server was answered with an error instead.`,
      );
      return couldNot("input_request_failed", failure);
    }
    // The same check as for a 2026 server's inputRequests, against the 2025-11-25 result types. The server is
    // waiting on this request, so a misfit is answered with an error (never with the answer), and the call ends.
    const { checkAnswer } = await import("./answer-check.js");
    const invalid = await checkAnswer(undefined, request, option, result as Record<string, unknown>, "2025-11-25", kit.InputResponseInvalid);
    if (invalid !== undefined) return couldNot("invalid_input_response", invalid, { issues: [...invalid.issues] as unknown as JsonObject[] });
    return reply(request, result as JsonObject);
  } catch (error) {
    controller.abort(error);
    const reason = error instanceof Error ? error.message : String(error);
    const failure = new InputRequestFailed(
      undefined,
      request.method,
      `The ${option} callback failed: ${reason}. The server was answered with an error instead; fix the callback or answer with a decline.`,
      { cause: error },
    );
    return couldNot("input_request_failed", failure);
  }
}
