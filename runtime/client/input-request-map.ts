/**
 * The check of `onInputRequest` (`Client.connect`'s map of input-request
 * kind → callback), loaded only when a client gives one: every key a kind
 * the schema of some revision the client speaks defines, every value a
 * function, no kind answered twice.
 *
 * @internal
 * @module
 */
import { spokenInputKinds } from "../protocol/input-kinds.js";
import { type Answerer, type AnyCallback, mapOption } from "./callbacks.js";

/**
 * Adds `map`'s callbacks to `answerers` (those of the sugar options).
 *
 * @throws TypeError when `map` is not an object, a value is not a function, or a kind is answered twice
 * @throws RangeError naming a key that is no input-request kind, with the kinds this client knows
 * @internal
 */
export function addInputRequestMap(answerers: Record<string, Answerer | undefined>, map: unknown): void {
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    throw new TypeError(
      `onInputRequest must be an object keyed by input-request method, e.g. { "elicitation/create": async (params) => ({ action: "cancel" }) }; ` +
        `got ${Array.isArray(map) ? "an array" : map === null ? "null" : typeof map}.`,
    );
  }
  const known = spokenInputKinds();
  for (const method of Object.keys(map)) {
    if (!known.includes(method)) {
      throw new RangeError(
        `onInputRequest has a key ${JSON.stringify(method)}, which is no input-request kind this client knows (it knows ${known.join(", ")}). ` +
          `Check the spelling; a kind from a newer protocol revision needs a newer mcp-roundtrip.`,
      );
    }
    const answer = (map as Record<string, unknown>)[method];
    if (answer === undefined) continue;
    const option = mapOption(method);
    if (typeof answer !== "function") throw new TypeError(`${option} must be a function, got ${answer === null ? "null" : typeof answer}.`);
    const earlier = answerers[method];
    if (earlier !== undefined) {
      throw new TypeError(`${method} is answered twice, by ${earlier.option} and by ${option}: give each kind one callback.`);
    }
    answerers[method] = { answer: answer as AnyCallback, option };
  }
}
