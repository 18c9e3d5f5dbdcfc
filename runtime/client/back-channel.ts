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
import type { JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
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
 *   itself, or (where server requests arrive) a view of it whose calls fail
 *   with the client's own `InputResponseInvalid` when the server ended them
 *   because a callback's answer did not fit (see {@link namingRefusals}).
 * @internal
 */
export function installBackChannel(transport: ClientTransport, answerers: Answerers, kit: BackChannelKit): ClientTransport {
  if (transport.setServerRequestHandler === undefined) return transport;
  const refused: InputResponseInvalid[] = [];
  transport.setServerRequestHandler((request) => answerServerRequest(request, answerers, kit, refused));
  loadTables().catch(() => {
    // Reported by the first request that needs them.
  });
  return namingRefusals(transport, refused);
}

/** How many refused answers are remembered for the call errors they cause (the oldest are dropped). */
const REFUSALS_KEPT = 16;

/**
 * A 2025 server's request carries no reference to the call it belongs to,
 * so a misfit answer cannot reject that call directly: the server is told
 * with an error response, and ends the call with an error that quotes ours
 * (`The client refused elicitation/create: onElicit answer: …`). This view
 * of the transport recognises that error and throws the client's own
 * `InputResponseInvalid` in its place, so the caller sees the same typed
 * error from either generation. Every other member is the transport's own,
 * bound to it.
 */
function namingRefusals(transport: ClientTransport, refused: InputResponseInvalid[]): ClientTransport {
  const request: ClientTransport["request"] = async (message, options) => {
    const response = await transport.request(message, options);
    const error = (response as { error?: { message?: unknown; data?: { reason?: unknown } } }).error;
    if (error?.data?.reason !== "invalid_input_response" || typeof error.message !== "string") return response;
    const index = refused.findIndex((mine) => (error.message as string).includes(mine.message));
    if (index < 0) return response;
    throw refused.splice(index, 1)[0]!;
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
async function answerServerRequest(request: JsonRpcRequest, answerers: Answerers, kit: BackChannelKit, refused?: InputResponseInvalid[]): Promise<JsonRpcResponse> {
  const { JsonRpcErrorCode, errorResponse } = kit;
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
      return refuse(JsonRpcErrorCode.InternalError, `The client's ${option} callback returned no result object.`);
    }
    // The same check as for a 2026 server's inputRequests, against the 2025-11-25 result types. The server is
    // waiting on this request, so a misfit is answered with an error (never with the answer), and the call ends.
    const { checkAnswer } = await import("./answer-check.js");
    const invalid = await checkAnswer(undefined, request, option, result as Record<string, unknown>, "2025-11-25", kit.InputResponseInvalid);
    if (invalid !== undefined) {
      if (refused !== undefined && refused.push(invalid) > REFUSALS_KEPT) refused.shift();
      return errorResponse(request.id, {
        code: JsonRpcErrorCode.InternalError,
        message: invalid.message,
        data: { reason: "invalid_input_response", issues: [...invalid.issues] },
      });
    }
    return reply(request, result as JsonObject);
  } catch (error) {
    controller.abort(error);
    const reason = error instanceof Error ? error.message : String(error);
    return refuse(JsonRpcErrorCode.InternalError, `The client's callback failed: ${reason}`);
  }
}
