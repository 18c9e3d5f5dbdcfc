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

/** The three callbacks that answer a server's input requests, in either era. */
export interface InputCallbacks {
  /** Answers the server's elicitation requests (forms and URLs); without it the client declares no elicitation capability. */
  onElicit?: ElicitCallback;
  /** Answers the server's sampling requests. @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); see {@link SampleCallback}. */
  onSample?: SampleCallback;
  /** Answers the server's roots requests. @deprecated Roots is deprecated as of 2026-07-28 (SEP-2577); see {@link ListRootsCallback}. */
  onListRoots?: ListRootsCallback;
}

type AnyCallback = (params: never, context: InputRequestContext) => unknown;

/** The callback that answers `method`, or `undefined` when none was given or the method is unknown. */
export function callbackFor(callbacks: InputCallbacks, method: string): AnyCallback | undefined {
  switch (method) {
    case "elicitation/create":
      return callbacks.onElicit as AnyCallback | undefined;
    case "sampling/createMessage":
      return callbacks.onSample as AnyCallback | undefined;
    case "roots/list":
      return callbacks.onListRoots as AnyCallback | undefined;
    default:
      return undefined;
  }
}

/** The option name that supplies the callback for `method`, for error messages. */
export function callbackOptionFor(method: string): string | undefined {
  switch (method) {
    case "elicitation/create":
      return "onElicit";
    case "sampling/createMessage":
      return "onSample";
    case "roots/list":
      return "onListRoots";
    default:
      return undefined;
  }
}
