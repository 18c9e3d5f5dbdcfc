import type { Answerer, Answerers, InputRequestContext } from "./callbacks.js";
import { InputRequestFailed } from "./errors.js";
import type { InputRequest, InputResponse } from "./protocol.js";
import { withoutCallback } from "./kinds.js";
import { InputResponseInvalid } from "./answer-errors.js";

/**
 * Answers every request of one round concurrently, each with the callback
 * for its method (`answerers`, built at connect from the sugar options and
 * `onInputRequest`), and returns the answers under the same keys.
 *
 * All callbacks are looked up before any runs, so a missing one fails the
 * round without side effects. When one callback throws (or returns something
 * that is not an object), the others are aborted through their signal and
 * the round fails with {@link InputRequestFailed}; when an answer does not
 * fit its request (an elicitation's form, else its kind's result type)
 * the round fails with `InputResponseInvalid` and nothing is sent.
 * When `signal` aborts, the round stops waiting and rejects with the
 * signal's reason. `revision` is the protocol version the connection speaks:
 * its result types judge the answers.
 */
export function fulfilRound(
  inputRequests: Record<string, InputRequest>,
  answerers: Answerers,
  signal: AbortSignal | undefined,
  revision: string,
): Promise<Record<string, InputResponse>> {
  const keys: string[] = [];
  const chosen: Answerer[] = [];
  for (const key in inputRequests) {
    const request = inputRequests[key]!;
    const answerer = answerers[request.method];
    if (answerer === undefined) return missingCallback(key, request.method);
    keys.push(key);
    chosen.push(answerer);
  }

  signal?.throwIfAborted();
  const round = new RoundSignal();
  return new Promise<Record<string, InputResponse>>((resolve, reject) => {
    const answers: unknown[] = new Array(keys.length);
    let outstanding = keys.length;
    let settled = false;
    const onOuterAbort = () => fail(signal!.reason);
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onOuterAbort);
      round.abort(error);
      reject(error);
    };
    signal?.addEventListener("abort", onOuterAbort, { once: true });
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const request = inputRequests[key]!;
      const method = request.method;
      const context = roundContext(key, method, round);
      const { answer: callback, option } = chosen[index]!;
      let pending: unknown;
      try {
        pending = callback((request.params ?? {}) as never, context);
      } catch (error) {
        fail(callbackThrew(key, method, option, error));
        break;
      }
      Promise.resolve(pending).then(
        (answer) => {
          if (settled) return;
          if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
            fail(badAnswer(key, method, option, answer));
            return;
          }
          // Checked before anything is sent: a misfit rejects the call here instead of being asked again by the server.
          checkAnswer(key, request, option, answer as Record<string, unknown>, revision).then((invalid) => {
            if (settled) return;
            if (invalid !== undefined) return fail(invalid);
            answers[index] = answer;
            if (--outstanding > 0) return;
            settled = true;
            signal?.removeEventListener("abort", onOuterAbort);
            const responses: Record<string, InputResponse> = {};
            for (let i = 0; i < keys.length; i++) setOwn(responses, keys[i]!, answers[i] as InputResponse);
            resolve(responses);
          }, fail); // a checker that did not load fails the round with that error, as is
        },
        (error: unknown) => fail(callbackThrew(key, method, option, error)),
      );
    }
  });
}

let checker: Promise<typeof import("./answer-check.js")> | undefined;

/** Checks an answer with the checker, imported on the first answer (a chunk of its own in a bundle; the runtime caches it). */
function checkAnswer(key: string, request: InputRequest, option: string, answer: Record<string, unknown>, revision: string) {
  // Kept: a repeated import() walks the module loader every time, a measurable share of an in-memory call.
  return (checker ??= import("./answer-check.js")).then((module) => module.checkAnswer(key, request, option, answer, revision, InputResponseInvalid));
}

/**
 * The signal a round's callbacks share, created only when a callback reads
 * it: most callbacks never do, and an AbortController per round is a
 * measurable share of an in-process exchange.
 */
class RoundSignal {
  private controller: AbortController | undefined;
  private reason: unknown;
  private aborted = false;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

const ROUND: unique symbol = Symbol("mcp-roundtrip/input-request/round");

/**
 * The `signal` accessor every callback context shares. An object literal with
 * its own `get signal()` would make a fresh getter closure per request, and V8
 * then keeps each context's whole round reachable from old-space garbage through
 * a scavenge or two: measurably more promoted memory and a faster-growing heap.
 */
const SIGNAL: PropertyDescriptor = Object.freeze({
  get(this: { [ROUND]: RoundSignal }): AbortSignal {
    return this[ROUND].signal;
  },
  enumerable: true,
  configurable: true,
});

/** `{ key, method, signal }` for one callback, `signal` created on first read. */
function roundContext(key: string, method: string, round: RoundSignal): InputRequestContext {
  const context = { key, method } as InputRequestContext & { [ROUND]: RoundSignal };
  Object.defineProperty(context, ROUND, { value: round });
  return Object.defineProperty(context, "signal", SIGNAL);
}

/** Keys are the server's to choose; `"__proto__"` must land as a key, not replace the prototype. */
function setOwn(target: Record<string, InputResponse>, key: string, value: InputResponse): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The round's failure when no callback answers `method`: the advice comes from the kind table. */
async function missingCallback(key: string, method: string): Promise<never> {
  const missing = withoutCallback(method);
  const advice =
    "options" in missing
      ? `Pass ${missing.options} to Client.connect so the client can answer it (and declares the capability).`
      : `${method} is no input-request kind this client knows (it knows ${missing.known}).`;
  throw new InputRequestFailed(key, method, `The server asked for "${key}" (${method}) but there is no callback for it. ${advice}`);
}

function callbackThrew(key: string, method: string, option: string, error: unknown): InputRequestFailed {
  const reason = error instanceof Error ? error.message : String(error);
  return new InputRequestFailed(
    key,
    method,
    `The ${option} callback failed for input "${key}": ${reason}. ` + `The round's other requests were aborted; fix the callback or answer with a decline.`,
    { cause: error },
  );
}

function badAnswer(key: string, method: string, option: string, answer: unknown): InputRequestFailed {
  return new InputRequestFailed(
    key,
    method,
    `The ${option} callback for input "${key}" returned ${answer === null ? "null" : typeof answer}; ` + `it must return the result object for ${method}.`,
  );
}
