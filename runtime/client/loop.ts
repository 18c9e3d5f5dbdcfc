import type { CallReceiver } from "./connection.js";
import { type BackoffPolicy, nextDelay, sleep } from "./backoff.js";
import type { Answerers } from "./callbacks.js";
import { fulfilRound } from "./fulfil.js";
import { InputRequiredRoundsExceeded } from "./rounds-exceeded.js";
import { type CallDescriptor, PendingRequest } from "./pending.js";
import type { InputRequiredResult, InputResponse, JsonObject } from "./protocol.js";
import { classifyResult, hasEntries } from "./results.js";
import type { ClientSession } from "./session.js";
import type { TimeoutOptions } from "./deadline.js";

/** What the automatic loop needs from its client. */
export interface LoopSettings {
  /** The callbacks by input-request kind. */
  readonly answerers: Answerers;
  readonly maxRounds: number;
  readonly backoff: BackoffPolicy;
  /** How long a round answered "temporarily unavailable" is sent again, in total, before the error is thrown. */
  readonly unavailableRetryMs: number;
}

/** Where a loop starts when it resumes a pending call instead of sending the first request. */
export interface LoopStart {
  readonly result: InputRequiredResult;
  /** The round that `result` was (1 for the first `input_required`). */
  readonly round: number;
}

/**
 * Runs a call to completion: sends it; while the server answers
 * `input_required`, answers every input request of the round concurrently
 * and retries the same call with the answers and the echoed `requestState`.
 * Rounds that carry only state wait (backoff) before retrying.
 *
 * @throws InputRequiredRoundsExceeded after `maxRounds` input-required rounds.
 * @throws InputRequestFailed when a round's request cannot be answered.
 * @throws InputResponseInvalid when a callback's answer does not fit its request (nothing is sent).
 * @throws RequestTimeout when a round got no answer within its deadline (`timeouts` over the client's; each round has its own).
 * @throws the signal's reason when `signal` aborts.
 */
export async function runToCompletion(
  session: ClientSession,
  settings: LoopSettings,
  call: CallDescriptor,
  signal: AbortSignal | undefined,
  meta: JsonObject | undefined,
  start?: LoopStart,
  onNotification?: CallReceiver,
  timeouts?: TimeoutOptions,
): Promise<JsonObject> {
  let round = start === undefined ? 0 : start.round - 1;
  const send = (inputResponses: Record<string, InputResponse> | undefined, requestState: string | undefined): Promise<JsonObject> => {
    const again = () => session.round(call, inputResponses, requestState, signal, meta, onNotification, timeouts);
    // Sending again is for one error only ("temporarily unavailable": the server's replay store is down), and rare,
    // so it lives in a chunk loaded on the first error; that chunk rethrows every other error, and if it cannot
    // load, the original error is what the caller sees.
    return again().catch((error: unknown) =>
      import("./unavailable-retry.js").then(
        (lazy) => lazy.sendAgainWhileUnavailable(error, settings.unavailableRetryMs, again, sleep, signal),
        () => Promise.reject(error),
      ),
    );
  };
  let result: JsonObject = start === undefined ? await send(undefined, undefined) : (start.result as unknown as JsonObject);
  let delay = settings.backoff.initialMs;
  // Each round's questions, compared only if the rounds run out: new questions, or the same ones asked again?
  const asked: unknown[] = [];
  for (;;) {
    if (!classifyResult(call.method, session.era, result, "custom" in call)) return result;
    const inputRequired = result as unknown as InputRequiredResult;
    round++;
    if (round > settings.maxRounds) {
      throw new InputRequiredRoundsExceeded(round - 1, inputRequired, PendingRequest.from(call, inputRequired, round, session.parkedWith), { asked });
    }
    let inputResponses: Record<string, InputResponse> | undefined;
    if (hasEntries(inputRequired.inputRequests)) {
      asked.push(inputRequired.inputRequests);
      inputResponses = await fulfilRound(inputRequired.inputRequests!, settings.answerers, signal, session.protocolVersion);
      delay = settings.backoff.initialMs;
    } else {
      await sleep(delay, signal);
      delay = nextDelay(delay, settings.backoff);
    }
    signal?.throwIfAborted();
    result = await send(inputResponses, inputRequired.requestState);
  }
}
