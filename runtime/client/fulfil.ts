import { type InputCallbacks, type InputRequestContext, callbackFor, callbackOptionFor } from "./callbacks.js";
import { InputRequestFailed } from "./errors.js";
import type { InputRequest, InputResponse } from "./protocol.js";

type Answerer = (params: never, context: InputRequestContext) => unknown;

/**
 * Answers every request of one round concurrently, each with the callback
 * for its method, and returns the answers under the same keys.
 *
 * All callbacks are looked up before any runs, so a missing one fails the
 * round without side effects. When one callback throws (or returns something
 * that is not an object), the others are aborted through their signal and
 * the round fails with {@link InputRequestFailed}. When `signal` aborts, the
 * round stops waiting and rejects with the signal's reason.
 */
export async function fulfilRound(
  inputRequests: Record<string, InputRequest>,
  callbacks: InputCallbacks,
  signal: AbortSignal | undefined,
): Promise<Record<string, InputResponse>> {
  const keys: string[] = [];
  const answerers: Answerer[] = [];
  for (const key in inputRequests) {
    const request = inputRequests[key]!;
    const answerer = callbackFor(callbacks, request.method);
    if (answerer === undefined) throw missingCallback(key, request.method);
    keys.push(key);
    answerers.push(answerer);
  }

  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(signal!.reason);
  if (signal !== undefined) {
    if (signal.aborted) throw signal.reason;
    signal.addEventListener("abort", onOuterAbort, { once: true });
  }
  try {
    const answers = await new Promise<unknown[]>((resolve, reject) => {
      const results: unknown[] = new Array(keys.length);
      let outstanding = keys.length;
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        controller.abort(error);
        reject(error);
      };
      if (signal !== undefined) controller.signal.addEventListener("abort", () => fail(controller.signal.reason), { once: true });
      keys.forEach((key, index) => {
        const request = inputRequests[key]!;
        const context: InputRequestContext = { key, method: request.method, signal: controller.signal };
        let pending: unknown;
        try {
          pending = answerers[index]!((request.params ?? {}) as never, context);
        } catch (error) {
          fail(callbackThrew(key, request.method, error));
          return;
        }
        Promise.resolve(pending).then(
          (answer) => {
            if (settled) return;
            if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
              fail(badAnswer(key, request.method, answer));
              return;
            }
            results[index] = answer;
            if (--outstanding === 0) {
              settled = true;
              resolve(results);
            }
          },
          (error: unknown) => fail(callbackThrew(key, request.method, error)),
        );
      });
    });
    const responses: Record<string, InputResponse> = {};
    for (let i = 0; i < keys.length; i++) responses[keys[i]!] = answers[i] as InputResponse;
    return responses;
  } finally {
    signal?.removeEventListener("abort", onOuterAbort);
  }
}

function missingCallback(key: string, method: string): InputRequestFailed {
  const option = callbackOptionFor(method);
  const advice =
    option === undefined
      ? `This client knows elicitation/create, sampling/createMessage and roots/list only.`
      : `Pass ${option} to Client.connect so the client can answer it (and declares the capability).`;
  return new InputRequestFailed(key, method, `The server asked for "${key}" (${method}) but there is no callback for it. ${advice}`);
}

function callbackThrew(key: string, method: string, error: unknown): InputRequestFailed {
  const reason = error instanceof Error ? error.message : String(error);
  return new InputRequestFailed(
    key,
    method,
    `The ${callbackOptionFor(method) ?? method} callback failed for input "${key}": ${reason}. ` +
      `The round's other requests were aborted; fix the callback or answer with a decline.`,
    { cause: error },
  );
}

function badAnswer(key: string, method: string, answer: unknown): InputRequestFailed {
  return new InputRequestFailed(
    key,
    method,
    `The ${callbackOptionFor(method) ?? method} callback for input "${key}" returned ${answer === null ? "null" : typeof answer}; ` +
      `it must return the result object for ${method}.`,
  );
}
