/**
 * The error of a call that ran out of rounds. A module of its own because
 * the lazy task handle builds it too: a value import from a lazy module into
 * the main ones would split the main chunk (docs/internals.md).
 */
import { anyRoundRepeated } from "../protocol/rounds.js";
import type { InputRequiredResult } from "./protocol.js";
import type { PendingRequest } from "./pending.js";

/**
 * The server kept answering `input_required` beyond the client's
 * `inputRequiredMaxRounds`. Carries the last `InputRequiredResult` and the
 * call as a {@link PendingRequest}, so the caller can inspect it or resume
 * it by hand.
 */
export class InputRequiredRoundsExceeded extends Error {
  /** Always `"InputRequiredRoundsExceeded"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "InputRequiredRoundsExceeded" as const;
  /** How many `input_required` rounds were answered before giving up. */
  readonly rounds: number;
  /** The last `InputRequiredResult` the server sent. */
  readonly lastResult: InputRequiredResult;
  /** The unfinished call; `pending.toJSON()` lets another process take it over. */
  readonly pending: PendingRequest;

  /** True when some round asked exactly what an earlier one had asked: the server did not take an answer. */
  readonly repeated: boolean;

  /**
   * @param rounds - how many rounds were answered.
   * @param lastResult - the server's last `InputRequiredResult`.
   * @param pending - the unfinished call.
   * @param options - `asked`: each round's `inputRequests`, so the message can tell new questions from the same ones asked again.
   */
  constructor(rounds: number, lastResult: InputRequiredResult, pending: PendingRequest, options?: { asked?: readonly unknown[] }) {
    const repeated = anyRoundRepeated(options?.asked ?? []);
    super(
      `${pending.method} "${pending.target}" still needed input after ${rounds} round(s). ` +
        (repeated
          ? `The server asked the same questions again, so it did not take the answers: check what your callbacks answer (see lastResult)`
          : `Every round asked new questions: raise inputRequiredMaxRounds if the server legitimately needs more rounds`) +
        `, or drive the rounds yourself with client.session and { allowInputRequired: true }.`,
    );
    this.repeated = repeated;
    this.rounds = rounds;
    this.lastResult = lastResult;
    this.pending = pending;
  }
}
