import type { SpokenInputKind, SpokenInputKinds } from "../protocol/input-kinds.js";
import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, ListRootsRequestParams, ListRootsResult } from "./protocol.js";

/**
 * What a callback learns about the input request it answers, besides its
 * params.
 */
export interface InputRequestContext {
  /**
   * The server-assigned key of the request in `inputRequests`; the answer is
   * sent back under the same key. `undefined` when a 2025-era server asked
   * over its back-channel, where requests have no key.
   */
  readonly key: string | undefined;
  /** The input request's method, e.g. `"elicitation/create"`. */
  readonly method: string;
  /**
   * Aborted when the answer is no longer wanted: a sibling request of the
   * same round failed, or the caller aborted the whole call.
   */
  readonly signal: AbortSignal;
}

/** Answers `elicitation/create`: asks the user, returns their answer. */
export type ElicitCallback = (params: ElicitRequestParams, context: InputRequestContext) => ElicitResult | Promise<ElicitResult>;

/**
 * Answers `sampling/createMessage`: runs the client's LLM.
 * @deprecated The protocol deprecates Sampling as of 2026-07-28 (SEP-2577), to be removed no earlier than a
 *   year later: it keeps working, but a server that needs a model should call an LLM provider itself.
 */
export type SampleCallback = (params: CreateMessageRequestParams, context: InputRequestContext) => CreateMessageResult | Promise<CreateMessageResult>;

/**
 * Answers `roots/list`: returns the client's roots.
 * @deprecated The protocol deprecates Roots as of 2026-07-28 (SEP-2577), to be removed no earlier than a year
 *   later: it keeps working, but pass directories and files as tool arguments, resource URIs or
 *   server configuration instead.
 */
export type ListRootsCallback = (params: ListRootsRequestParams, context: InputRequestContext) => ListRootsResult | Promise<ListRootsResult>;

/**
 * Answers one kind of input request, `Method`: gets the request's params
 * (typed from the schema of every revision the client speaks) and returns
 * that kind's result.
 */
export type InputRequestHandler<Method extends SpokenInputKind> = (
  params: SpokenInputKinds[Method]["params"],
  context: InputRequestContext,
) => SpokenInputKinds[Method]["result"] | Promise<SpokenInputKinds[Method]["result"]>;

/**
 * Input-request kind (its method) → the callback that answers it, for every
 * kind the schema defines, `"elicitation/create"` as much as one a newer
 * revision adds. A key that names no kind is a type error, and an error at
 * `Client.connect`.
 */
export type InputRequestHandlers = { [Method in SpokenInputKind]?: InputRequestHandler<Method> };

/** The callbacks that answer a server's input requests, in either era. */
export interface InputCallbacks {
  /** Answers the server's elicitation requests (forms and URLs); without it the client declares no elicitation capability. */
  onElicit?: ElicitCallback;
  /** Answers the server's sampling requests. @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); see {@link SampleCallback}. */
  onSample?: SampleCallback;
  /** Answers the server's roots requests. @deprecated Roots is deprecated as of 2026-07-28 (SEP-2577); see {@link ListRootsCallback}. */
  onListRoots?: ListRootsCallback;
  /**
   * Answers input requests by method, any kind the schema defines (the
   * three above too: each kind is given once, here or by its own option).
   * The client declares each kind's capability, so a server may ask it.
   *
   * @example
   * ```ts
   * const client = await Client.connect(url, {
   *   onInputRequest: { "elicitation/create": async (params) => ({ action: "accept", content: { ok: true } }) },
   * });
   * ```
   */
  onInputRequest?: InputRequestHandlers;
}

/** A callback as the runtime calls it. @internal */
export type AnyCallback = (params: never, context: InputRequestContext) => unknown;

/** A kind's callback and the option it came from (`onElicit`, `onInputRequest["…"]`), for messages. @internal */
export interface Answerer {
  readonly answer: AnyCallback;
  readonly option: string;
}

/**
 * Method → its answerer, for the kinds the client answers (a null-prototype
 * object), built at connect by `kinds.ts` from the sugar options and
 * `onInputRequest`. @internal
 */
export type Answerers = Readonly<Record<string, Answerer | undefined>>;
