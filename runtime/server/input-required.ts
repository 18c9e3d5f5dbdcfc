import type {
  CreateMessageRequest,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  InputRequest,
  InputRequiredResult,
  ListRootsRequest,
} from "../protocol/types.js";
import type { ElicitSchema } from "./dependencies/elicitation-schema.js";

/**
 * An input request as {@link inputRequired} takes it: any `InputRequest`,
 * and a form elicitation's `requestedSchema` may be read-only (an `as const`
 * form, as `elicit` takes it).
 */
export type InputRequestInit =
  | CreateMessageRequest
  | ListRootsRequest
  | {
      /** An elicitation: a form the client renders, or a URL it opens. */
      method: "elicitation/create";
      /** The elicitation's params as the protocol defines them, except that a form may be an `as const` literal. */
      params:
        | ElicitRequestURLParams
        | (Omit<ElicitRequestFormParams, "requestedSchema"> & {
            /** The form: a flat object of primitive fields, read-only (`as const`) or not. */
            requestedSchema: ElicitRequestFormParams["requestedSchema"] | ElicitSchema;
          });
    };

/** What {@link inputRequired} takes: at least one of the two fields. */
export interface InputRequiredInit {
  /**
   * What the server still needs, under keys the server chooses; answers come back under the same keys.
   * Read-only structures are accepted, so an `as const` form can be the `requestedSchema`.
   */
  inputRequests?: Readonly<Record<string, InputRequestInit>>;
  /**
   * The handler's plaintext continuation state. `McpServer` (and a `Server`
   * with a request-state boundary) seals it before it leaves the process and
   * hands the plaintext back on the retry.
   */
  requestState?: string;
}

/**
 * Builds an `InputRequiredResult`: the answer a handler gives when it needs
 * something only the client (or its user) has before it can finish.
 *
 * @param init - the input requests and/or the state to carry into the retry
 * @returns a result with `resultType: "input_required"`
 * @throws TypeError when neither `inputRequests` (non-empty) nor
 *   `requestState` is given, since the protocol requires at least one, or
 *   when a field has the wrong type
 * @example
 * ```ts
 * return inputRequired({
 *   inputRequests: { region: { method: "elicitation/create", params: { message: "Which region?", requestedSchema } } },
 *   requestState: JSON.stringify({ step: 1 }),
 * });
 * ```
 */
export function inputRequired(init: InputRequiredInit): InputRequiredResult {
  if (typeof init !== "object" || init === null) {
    throw new TypeError("inputRequired() expects an object with inputRequests and/or requestState");
  }
  const { inputRequests, requestState } = init;
  if (inputRequests !== undefined && (typeof inputRequests !== "object" || inputRequests === null || Array.isArray(inputRequests))) {
    throw new TypeError("inputRequired(): inputRequests must be an object mapping your keys to input requests");
  }
  if (requestState !== undefined && typeof requestState !== "string") {
    throw new TypeError(`inputRequired(): requestState must be a string, got ${typeof requestState}; serialise structured state with JSON.stringify`);
  }
  const hasRequests = inputRequests !== undefined && Object.keys(inputRequests).length > 0;
  if (!hasRequests && requestState === undefined) {
    throw new TypeError("inputRequired(): give at least one input request or a requestState; an InputRequiredResult with neither tells the client nothing");
  }
  const result: InputRequiredResult = { resultType: "input_required" } as InputRequiredResult;
  // Sent as given, never changed: the read-only view is the caller's promise, not ours to break.
  if (hasRequests) result.inputRequests = inputRequests as Record<string, InputRequest>;
  if (requestState !== undefined) result.requestState = requestState;
  return result;
}

export { isInputRequired } from "../protocol/input-required-guard.js";
