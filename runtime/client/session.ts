import { copyToExtend } from "../protocol/copy.js";
import type { CallReceiver, Connection } from "./connection.js";
import { InputRequiredNotAllowed } from "./errors.js";
import { type CallDescriptor, PendingRequest, type PendingServer } from "./pending.js";
import type { ServerDescription } from "./negotiate.js";
import type { CallToolResult, GetPromptResult, InputRequiredResult, InputResponse, JsonObject, ReadResourceResult } from "./protocol.js";
import { classifyResult } from "./results.js";
import type { TimeoutOptions } from "./deadline.js";

/** Options of one hand-driven round. */
export interface ManualCallOptions extends TimeoutOptions {
  /**
   * Return an `InputRequiredResult` instead of throwing
   * {@link InputRequiredNotAllowed}. The return type widens accordingly.
   */
  allowInputRequired?: boolean;
  /** Answers to the previous round's `inputRequests`, under the same keys. */
  inputResponses?: Record<string, InputResponse>;
  /** The previous round's `requestState`, exactly as received. Omit when it had none. */
  requestState?: string;
  /** Aborts this request. */
  signal?: AbortSignal;
  /** Extra `_meta` keys for this request (`progressToken`, …); the protocol's own keys are always the client's. */
  meta?: JsonObject;
}

/** {@link ManualCallOptions} that opt in to receiving `InputRequiredResult`. */
export type AllowInputRequired = ManualCallOptions & {
  /** Return an `InputRequiredResult` instead of throwing `InputRequiredNotAllowed`: the caller answers the round itself. */
  allowInputRequired: true;
};

/** Options of a plain request; `timeoutMs` and the rest override the client's for this request. */
export interface RequestOptions extends TimeoutOptions {
  /** Aborts this request, cancelling it the way the transport defines (see {@link CallOptions.signal}). */
  signal?: AbortSignal;
  /** Extra `_meta` keys for this request; the protocol's own keys are always the client's. */
  meta?: JsonObject;
}

/**
 * The client's lower layer: one request per call, no automatic rounds.
 * Reached as `client.session`. Use it to drive the input-required loop by
 * hand (inspect or audit each round, gather answers in another process,
 * bound the exchange by wall-clock time). A client that answers by hand
 * and has no callbacks declares what it can answer with the `capabilities`
 * option of `Client.connect` (e.g. `{ elicitation: { form: {} } }`);
 * otherwise a server must not ask and answers `-32021`.
 *
 * @example
 * ```ts
 * let result = await client.session.callTool("provision", { name }, { allowInputRequired: true });
 * while (isInputRequired(result)) {
 *   const inputResponses = await answer(result.inputRequests ?? {});
 *   result = await client.session.callTool("provision", { name }, {
 *     allowInputRequired: true, inputResponses, requestState: result.requestState,
 *   });
 * }
 * ```
 */
export class ClientSession {
  private readonly connection: Connection;
  private readonly pendingByResult = new WeakMap<object, PendingRequest>();
  /** @internal The server a call parked on this session belongs to: its endpoint, name and version, and the revision spoken. */
  readonly parkedWith: PendingServer;

  /** @internal Created by `Client.connect`. */
  constructor(connection: Connection, server?: ServerDescription) {
    this.connection = connection;
    const { name, version } = server?.serverInfo ?? {};
    // Through JSON: a field the server did not give is left out, as it would be in storage.
    this.parkedWith = JSON.parse(JSON.stringify({ endpoint: connection.transport.endpointKey, name, version, protocolVersion: connection.protocolVersion }));
  }

  /**
   * Sends one `tools/call`.
   *
   * @returns the `CallToolResult`, or with `allowInputRequired: true` possibly an `InputRequiredResult`.
   * @throws InputRequiredNotAllowed when the server needs input and the caller did not opt in.
   * @throws McpError when the server answered with a JSON-RPC error.
   */
  callTool(name: string, args: JsonObject | undefined, options: AllowInputRequired): Promise<CallToolResult | InputRequiredResult>;
  callTool(name: string, args?: JsonObject, options?: ManualCallOptions): Promise<CallToolResult>;
  async callTool(name: string, args?: JsonObject, options?: ManualCallOptions): Promise<CallToolResult | InputRequiredResult> {
    checkName("callTool", name);
    return this.manual({ method: "tools/call", name, ...(args === undefined ? {} : { arguments: args }) }, options, 1) as unknown as Promise<
      CallToolResult | InputRequiredResult
    >;
  }

  /** Sends one `prompts/get`; see {@link ClientSession.callTool}. */
  getPrompt(name: string, args: Record<string, string> | undefined, options: AllowInputRequired): Promise<GetPromptResult | InputRequiredResult>;
  getPrompt(name: string, args?: Record<string, string>, options?: ManualCallOptions): Promise<GetPromptResult>;
  async getPrompt(name: string, args?: Record<string, string>, options?: ManualCallOptions): Promise<GetPromptResult | InputRequiredResult> {
    checkName("getPrompt", name);
    return this.manual({ method: "prompts/get", name, ...(args === undefined ? {} : { arguments: args }) }, options, 1) as unknown as Promise<
      GetPromptResult | InputRequiredResult
    >;
  }

  /** Sends one `resources/read`; see {@link ClientSession.callTool}. */
  readResource(uri: string, options: AllowInputRequired): Promise<ReadResourceResult | InputRequiredResult>;
  readResource(uri: string, options?: ManualCallOptions): Promise<ReadResourceResult>;
  async readResource(uri: string, options?: ManualCallOptions): Promise<ReadResourceResult | InputRequiredResult> {
    checkName("readResource", uri);
    return this.manual({ method: "resources/read", uri }, options, 1) as unknown as Promise<ReadResourceResult | InputRequiredResult>;
  }

  /**
   * Sends the next round of a pending call: the same method, name (or URI)
   * and arguments, `inputResponses` as given and the pending
   * `requestState` echoed exactly. Always allows `InputRequiredResult`.
   *
   * @param pending the call, e.g. from `PendingRequest.resume(json)`.
   * @param inputResponses answers to `pending.inputRequests`, under the same keys.
   */
  async continue(pending: PendingRequest, inputResponses?: Record<string, InputResponse>, options?: RequestOptions): Promise<JsonObject | InputRequiredResult> {
    if (!(pending instanceof PendingRequest)) {
      throw new TypeError(`session.continue expects a PendingRequest (see PendingRequest.resume).`);
    }
    // Not { ...options, allowInputRequired: true }: see copyToExtend.
    const manual = (options == null ? {} : copyToExtend(options)) as ManualCallOptions;
    manual.allowInputRequired = true;
    if (inputResponses !== undefined) manual.inputResponses = inputResponses;
    if (pending.requestState !== undefined) manual.requestState = pending.requestState;
    return this.manual(pending.call, manual, pending.round + 1);
  }

  /**
   * The {@link PendingRequest} for an `InputRequiredResult` this session
   * returned, ready to serialise; `undefined` for any other object.
   */
  pending(result: InputRequiredResult): PendingRequest | undefined {
    return this.pendingByResult.get(result);
  }

  /**
   * Sends any request and returns its (complete) result. For methods without
   * a dedicated helper.
   *
   * @throws McpError for a JSON-RPC error; InvalidServerResult for a result the client cannot accept.
   */
  async request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    if (typeof method !== "string" || method === "") throw new TypeError(`session.request needs a method name.`);
    const result = await this.connection.send(method, { ...params }, options?.signal, options?.meta, undefined, options);
    if (classifyResult(method, this.connection.era, result)) {
      throw new InputRequiredNotAllowed(method, String(params?.name ?? params?.uri ?? ""), result as unknown as InputRequiredResult);
    }
    return result;
  }

  /**
   * One round of an input-required-capable call, without judgement: returns
   * the result whether complete or input-required.
   *
   * @internal Used by the automatic loop.
   */
  async round(
    call: CallDescriptor,
    inputResponses: Record<string, InputResponse> | undefined,
    requestState: string | undefined,
    signal: AbortSignal | undefined,
    meta: JsonObject | undefined,
    onNotification?: CallReceiver,
    timeouts?: TimeoutOptions,
  ): Promise<JsonObject> {
    const params: JsonObject =
      "custom" in call
        ? { ...call.params }
        : call.method === "resources/read"
          ? { uri: (call as { uri: string }).uri }
          : paramsOfNamed(call as { name: string; arguments?: JsonObject });
    if (inputResponses !== undefined) params.inputResponses = inputResponses;
    // Echo exactly what the server sent, and nothing when it sent nothing (mrtr "Client Requirements").
    if (requestState !== undefined) params.requestState = requestState;
    return this.connection.send(call.method, params, signal, meta, onNotification, timeouts);
  }

  /** @internal The era of the connection, for result classification. */
  get era() {
    return this.connection.era;
  }

  /** @internal The protocol version of the connection, whose schema checks the callbacks' answers. */
  get protocolVersion() {
    return this.connection.protocolVersion;
  }

  private async manual(call: CallDescriptor, options: ManualCallOptions | undefined, round: number): Promise<JsonObject> {
    if (options?.requestState !== undefined && typeof options.requestState !== "string") {
      throw new TypeError(`requestState must be the string the server sent, got ${typeof options.requestState}.`);
    }
    if (options?.inputResponses !== undefined && (typeof options.inputResponses !== "object" || options.inputResponses === null)) {
      throw new TypeError(`inputResponses must be an object keyed like the server's inputRequests.`);
    }
    const result = await this.round(call, options?.inputResponses, options?.requestState, options?.signal, options?.meta, undefined, options);
    if (!classifyResult(call.method, this.connection.era, result, "custom" in call)) return result;
    const inputRequired = result as unknown as InputRequiredResult;
    if (options?.allowInputRequired !== true) {
      throw new InputRequiredNotAllowed(call.method, PendingRequest.from(call, inputRequired, round).target, inputRequired);
    }
    this.pendingByResult.set(inputRequired, PendingRequest.from(call, inputRequired, round, this.parkedWith));
    return result;
  }
}

function checkName(what: string, value: unknown): void {
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${what} needs a non-empty string ${what === "readResource" ? "URI" : "name"}, got ${JSON.stringify(value)}.`);
  }
}

function paramsOfNamed(call: { name: string; arguments?: JsonObject }): JsonObject {
  return call.arguments === undefined ? { name: call.name } : { name: call.name, arguments: call.arguments };
}
