import type { ServedInputKind, ServedInputKinds } from "../protocol/input-kinds.js";
import type { InputRequest, InputRequiredResult } from "../protocol/types.js";

/**
 * `T` with every structure read-only, so a value written `as const` (a
 * form's `required` list, an `enum`) is accepted where the protocol's type
 * has mutable arrays; a mutable value fits as well.
 */
export type Frozen<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly Frozen<E>[]
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

/**
 * An input request as {@link inputRequired} takes it: a request of any kind
 * the schema of a served revision defines (elicitation, sampling, roots, and
 * whatever kind a newer revision adds), typed by its method; read-only
 * structures are accepted, so a form's `requestedSchema` may be an
 * `as const` literal (as `elicit` takes it).
 */
export type InputRequestInit = { [M in ServedInputKind]: Frozen<ServedInputKinds[M]["request"]> }[ServedInputKind];

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
 * something only the client (or its user) has before it can finish. Any
 * input-request kind a served revision defines may be asked; the server
 * refuses with `-32021` a kind the client did not declare the capability
 * for, or that its revision does not define.
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
