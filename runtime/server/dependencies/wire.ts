/**
 * The wire shapes dependencies read and write, kept to the members this
 * folder touches so it compiles before (and independently of) the generated
 * types. Each is structurally a subset of the generated definition of the
 * same name.
 *
 * @internal
 */

/** `ClientCapabilities`, as far as input requests care. */
export interface ClientCapabilitiesLike {
  elicitation?: { form?: object; url?: object } & Record<string, unknown>;
  sampling?: { context?: object; tools?: object } & Record<string, unknown>;
  roots?: object;
  [key: string]: unknown;
}

/** One entry of `InputRequiredResult.inputRequests`. */
export type WireInputRequest =
  | { method: "elicitation/create"; params: Record<string, unknown> }
  | { method: "sampling/createMessage"; params: Record<string, unknown> }
  | { method: "roots/list"; params?: Record<string, unknown> };

/** `InputRequiredResult` as a handler hands it to the server (state still plaintext). */
export interface InputRequiredResultLike {
  resultType: "input_required";
  inputRequests?: Record<string, WireInputRequest>;
  requestState?: string;
}

/** A `Root` of `ListRootsResult`. */
export interface RootLike {
  uri: string;
  name?: string;
  _meta?: Record<string, unknown>;
}

/** `CreateMessageResult`: what a sampled completion answers. */
export interface CreateMessageResultLike {
  role: "user" | "assistant";
  content: unknown;
  model: string;
  stopReason?: string;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
