/**
 * The check of `onInputRequest` (`Client.connect`'s map of input-request
 * kind → callback), loaded by `kinds.ts` only when a client gives one: every
 * key a kind some revision the client speaks defines, every value a
 * function, no kind answered twice. What it needs of `kinds.ts` is passed
 * in rather than imported, so a splitting bundler keeps the two one chunk
 * each instead of splitting a shared one off.
 *
 * @internal
 * @module
 */
import type { Answerer, AnyCallback } from "./callbacks.js";

/**
 * Adds `map`'s callbacks to `answerers` (those of the sugar options).
 *
 * @param known - every input kind of the revisions the client speaks (`spokenInputKinds()`)
 * @param optionOf - how a map entry is named in messages (`onInputRequest["roots/list"]`)
 * @throws TypeError when `map` is not an object, a value is not a function, or a kind is answered twice
 * @throws RangeError naming a key that is no input-request kind, with the kinds this client knows
 * @internal
 */
export function addInputRequestMap(
  answerers: Record<string, Answerer | undefined>,
  map: unknown,
  known: readonly string[],
  optionOf: (method: string) => string,
): void {
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    throw new TypeError(
      `onInputRequest must be an object keyed by input-request method, e.g. { "elicitation/create": async (params) => ({ action: "cancel" }) }; ` +
        `got ${Array.isArray(map) ? "an array" : map === null ? "null" : typeof map}.`,
    );
  }
  for (const method of Object.keys(map)) {
    if (!known.includes(method)) {
      throw new RangeError(
        `onInputRequest has a key ${JSON.stringify(method)}, which is no input-request kind this client knows (it knows ${known.join(", ")}). ` +
          `Check the spelling; a kind from a newer protocol revision needs a newer mcp-roundtrip.`,
      );
    }
    const answer = (map as Record<string, unknown>)[method];
    if (answer === undefined) continue;
    const option = optionOf(method);
    if (typeof answer !== "function") throw new TypeError(`${option} must be a function, got ${answer === null ? "null" : typeof answer}.`);
    const earlier = answerers[method];
    if (earlier !== undefined) throw new TypeError(`${method} is answered twice, by ${earlier.option} and by ${option}: give each kind one callback.`);
    answerers[method] = { answer: answer as AnyCallback, option };
  }
}
