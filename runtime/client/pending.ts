import type { InputRequest, InputRequiredMethod, InputRequiredResult, JsonObject } from "./protocol.js";
import type { PendingServer } from "./pending-server.js";

export type { PendingServer } from "./pending-server.js";

/** Tag of the serialised form, so a stray JSON blob is not mistaken for one. */
const TYPE = "mcp-roundtrip/pending-request";

/** The JSON form of a {@link PendingRequest}: plain data, safe to store between processes. */
export interface PendingRequestJSON<Method extends string = InputRequiredMethod | (string & {})> {
  /** `"mcp-roundtrip/pending-request"`: lets `PendingRequest.resume` refuse a record that is something else. */
  type: typeof TYPE;
  /** The format's version; `resume` rejects any other, rather than misread a record a newer release wrote. */
  version: 1;
  /** The method the call was made with, and is retried with (a custom method's own name with `custom`). */
  method: Method;
  /** A custom method's call (`client.request`): `arguments` holds its params. */
  custom?: true;
  /** Tool or prompt name (`tools/call`, `prompts/get`). */
  name?: string;
  /** Resource URI (`resources/read`). */
  uri?: string;
  /** The call's arguments, repeated unchanged on every round. */
  arguments?: JsonObject;
  /** What the server asked for in the last round. */
  inputRequests?: Record<string, InputRequest>;
  /** The server's opaque state from the last round, to be echoed exactly. */
  requestState?: string;
  /** How many `input_required` rounds this call has had so far. */
  round: number;
  /**
   * The server the call was parked with and the revision it spoke; absent in
   * records written before it was kept (those resume unchecked).
   */
  server?: PendingServer;
}

/** Identifies the call a round belongs to: its method and what it targets. */
export type CallDescriptor =
  | {
      /** A named call: a tool or a prompt. */
      method: "tools/call" | "prompts/get";
      /** The tool's or prompt's name. */
      name: string;
      /** The arguments, sent again unchanged on every round of the call. */
      arguments?: JsonObject;
    }
  | {
      /** A resource read, which is addressed by URI and takes no arguments. */
      method: "resources/read";
      /** The resource's URI. */
      uri: string;
    }
  | {
      /** A method outside the protocol schema (`client.request`). */
      method: string;
      /** Marks a custom method's call: its `params` are sent again unchanged on every round. */
      custom: true;
      /** The params, without the round's `inputResponses` and `requestState`. */
      params: JsonObject;
    };

/**
 * A call that is waiting for input: the original method, name (or URI) and
 * arguments plus the last round's `inputRequests` and `requestState`.
 *
 * It exists so a round can be finished elsewhere: `JSON.stringify(pending)`
 * (or `pending.toJSON()`) gives plain data to store, and
 * `PendingRequest.resume(json)` rebuilds it in another process, where
 * `client.resume(pending)` answers the requests with that client's callbacks
 * or `client.session.continue(pending, inputResponses)` sends answers
 * gathered some other way.
 *
 * @example
 * ```ts
 * const first = await client.session.callTool("provision", { name: "orders" }, { allowInputRequired: true });
 * if (isInputRequired(first)) await store.put(id, JSON.stringify(client.session.pending(first)));
 * // … later, in another process:
 * const result = await otherClient.resume(PendingRequest.resume(await store.get(id)));
 * ```
 */
export class PendingRequest<Method extends string = InputRequiredMethod | (string & {})> {
  /** The method the call was made with, and is retried with. */
  readonly method: Method;
  /** Tool or prompt name, or resource URI (a custom method's own name). */
  readonly target: string;
  /** The call's arguments (a custom method's params), sent again unchanged with the answers; `undefined` for a resource read. */
  readonly arguments: JsonObject | undefined;
  /** True for a custom method's call (`client.request`). */
  readonly custom: boolean;
  /** What the server asked for in the last round, keyed as the answers must be. */
  readonly inputRequests: Record<string, InputRequest> | undefined;
  /** The server's sealed state from the last round, echoed exactly on the retry; the client never reads it. */
  readonly requestState: string | undefined;
  /** How many `input_required` rounds the call has had (1 after the first), counted against the client's round limit. */
  readonly round: number;
  /**
   * The server the call was parked with (its URL or command, its name and
   * version) and the protocol revision spoken; `client.resume` checks it
   * before asking anyone anything. `undefined` for a call built without one.
   */
  readonly server: PendingServer | undefined;

  private constructor(call: CallDescriptor, result: Pick<InputRequiredResult, "inputRequests" | "requestState">, round: number, server: PendingServer | undefined) {
    // One reading for every kind of call (a resource has a uri, a tool or prompt a name and arguments, a custom method params).
    const fields = call as { name?: string; uri?: string; arguments?: JsonObject; params?: JsonObject };
    this.method = call.method as Method;
    this.custom = "custom" in call;
    this.target = fields.uri ?? fields.name ?? call.method;
    this.arguments = fields.arguments ?? fields.params;
    this.inputRequests = result.inputRequests;
    this.requestState = result.requestState;
    this.round = round;
    this.server = server;
  }

  /**
   * The pending form of `result`, the `InputRequiredResult` that `call`
   * received in round `round` (1 for the first), from `server` (which
   * `client.resume` checks; a client's `session.pending` fills it in).
   *
   * @throws TypeError when `call` or `result` is malformed.
   */
  static from<Call extends CallDescriptor>(call: Call, result: InputRequiredResult, round = 1, server?: PendingServer): PendingRequest<Call["method"]> {
    checkCall(call);
    if (typeof result !== "object" || result === null || result.resultType !== "input_required") {
      throw new TypeError(`PendingRequest.from expects an InputRequiredResult (resultType "input_required").`);
    }
    checkRound(round);
    return new PendingRequest(call, result, round, server);
  }

  /**
   * Rebuilds a pending call from its JSON form (a string or the parsed
   * object), as written by `toJSON()`.
   *
   * @throws TypeError naming the first field that is missing or malformed.
   */
  static resume<Method extends string = InputRequiredMethod | (string & {})>(json: string | PendingRequestJSON<Method>): PendingRequest<Method> {
    let data: unknown = json;
    if (typeof json === "string") {
      try {
        data = JSON.parse(json);
      } catch (error) {
        throw new TypeError(`PendingRequest.resume: the string is not JSON (${(error as Error).message}).`);
      }
    }
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      throw new TypeError(`PendingRequest.resume expects the object written by PendingRequest#toJSON().`);
    }
    const record = data as Partial<PendingRequestJSON>;
    if (record.type !== TYPE || record.version !== 1) {
      throw new TypeError(
        `PendingRequest.resume: expected type "${TYPE}" version 1; this is not a serialised pending request, ` + `or it was written by an incompatible version.`,
      );
    }
    const call: CallDescriptor =
      record.custom === true
        ? { method: record.method as string, custom: true, params: record.arguments as JsonObject }
        : record.method === "resources/read"
          ? { method: "resources/read", uri: record.uri as string }
          : { method: record.method as "tools/call", name: record.name as string, arguments: record.arguments };
    checkCall(call);
    if (record.inputRequests !== undefined && (typeof record.inputRequests !== "object" || record.inputRequests === null)) {
      throw new TypeError(`PendingRequest.resume: "inputRequests" must be an object.`);
    }
    if (record.requestState !== undefined && typeof record.requestState !== "string") {
      throw new TypeError(`PendingRequest.resume: "requestState" must be a string.`);
    }
    if (record.inputRequests === undefined && record.requestState === undefined) {
      throw new TypeError(`PendingRequest.resume: needs "inputRequests" or "requestState"; there is nothing to continue.`);
    }
    checkRound(record.round);
    // "server" is checked where it is compared (client.resume), off the browser entry chunk.
    return new PendingRequest(call, { inputRequests: record.inputRequests, requestState: record.requestState }, record.round!, record.server);
  }

  /** The call this round belongs to. */
  get call(): CallDescriptor {
    if (this.custom) return { method: this.method, custom: true, params: this.arguments ?? {} };
    return this.method === "resources/read"
      ? { method: "resources/read", uri: this.target }
      : { method: this.method as "tools/call", name: this.target, ...(this.arguments === undefined ? {} : { arguments: this.arguments }) };
  }

  /** Plain data for storage; `PendingRequest.resume` reads it back. */
  toJSON(): PendingRequestJSON<Method> {
    const json: PendingRequestJSON<Method> = { type: TYPE, version: 1, method: this.method, round: this.round };
    if (this.custom) json.custom = true;
    else if (this.method === "resources/read") json.uri = this.target;
    else json.name = this.target;
    if (this.arguments !== undefined) json.arguments = this.arguments;
    if (this.inputRequests !== undefined) json.inputRequests = this.inputRequests;
    if (this.requestState !== undefined) json.requestState = this.requestState;
    if (this.server !== undefined) json.server = this.server;
    return json;
  }
}

function checkCall(call: CallDescriptor): void {
  if (typeof call !== "object" || call === null) throw new TypeError(`a pending call needs a { method, name | uri } descriptor.`);
  if ("custom" in call) {
    if (typeof call.method !== "string" || call.method === "") throw new TypeError(`a pending custom call needs a non-empty "method".`);
    if (typeof call.params !== "object" || call.params === null || Array.isArray(call.params))
      throw new TypeError(`a pending ${call.method}'s params must be an object.`);
    return;
  }
  switch (call.method) {
    case "tools/call":
    case "prompts/get":
      if (typeof (call as { name?: unknown }).name !== "string" || (call as { name: string }).name === "") {
        throw new TypeError(`a pending ${call.method} needs a non-empty "name".`);
      }
      if (!isArgumentsObject((call as { arguments?: unknown }).arguments)) {
        throw new TypeError(`a pending ${call.method}'s "arguments" must be an object.`);
      }
      return;
    case "resources/read":
      if (typeof (call as { uri?: unknown }).uri !== "string" || (call as { uri: string }).uri === "")
        throw new TypeError(`a pending resources/read needs a non-empty "uri".`);
      return;
    default:
      throw new TypeError(
        `a pending call's method must be "tools/call", "prompts/get" or "resources/read", got ${JSON.stringify((call as { method?: unknown }).method)}.`,
      );
  }
}

function checkRound(round: unknown): void {
  if (typeof round !== "number" || !Number.isInteger(round) || round < 1) {
    throw new TypeError(`a pending call's "round" must be an integer ≥ 1, got ${JSON.stringify(round)}.`);
  }
}

function isArgumentsObject(value: unknown): boolean {
  return value === undefined || (typeof value === "object" && value !== null && !Array.isArray(value));
}
