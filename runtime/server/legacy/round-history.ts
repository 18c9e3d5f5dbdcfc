/**
 * What a call asked over a 2025 session, round by round, so the error for
 * exhausted rounds can tell a handler that asks many distinct questions
 * (raise `legacySessions.maxRounds`) from one that asks the same again (its
 * answers are not being taken).
 *
 * @internal
 */

/** The rounds asked so far, to tell a handler that asks many distinct questions from one that asks the same again. @internal */
export class RoundHistory {
  readonly #seen = new Set<string>();
  /** True once a round asked exactly what an earlier round asked. */
  repeated = false;

  /** Records one round's input requests. */
  add(requests: Record<string, unknown>): void {
    const fingerprint = JSON.stringify(requests);
    if (this.#seen.has(fingerprint)) this.repeated = true;
    else this.#seen.add(fingerprint);
  }
}
