/**
 * A verified token and its one-time use, as `verifyOnce` hands it over.
 *
 * @module
 */

/** The plaintext of a verified token, and how to settle its single use. */
export interface RequestStateUse {
  /** The handler's plaintext state. */
  readonly state: string;
  /** The request produced a result (complete or `input_required`): the token is spent. Idempotent. */
  commit(): Promise<void>;
  /** The request failed before producing a result: a retry with the same token is accepted. Idempotent. */
  release(): Promise<void>;
}

const settled = (): Promise<void> => Promise.resolve();

/** The settle functions of a token no replay store tracks. @internal */
export const NO_USE: Pick<RequestStateUse, "commit" | "release"> = Object.freeze({ commit: settled, release: settled });
