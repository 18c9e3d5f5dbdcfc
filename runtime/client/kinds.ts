/**
 * The client's reading of the generated input-kind table, loaded by
 * `Client.connect` (so the browser entry chunk carries neither the table nor
 * the 2025 method table it shares a module with): the callbacks by kind,
 * built from the options and checked; the capabilities they declare; and
 * what a message says when a kind has no callback.
 *
 * Imports nothing the client's main modules import, so a splitting bundler
 * keeps it in a chunk of its own (docs/internals.md).
 *
 * @internal
 * @module
 */
import { baseDeclaration, inputKindOf, newestInputKind, spokenInputKinds } from "../protocol/input-kinds.js";
import type { Answerer, Answerers, AnyCallback, InputCallbacks } from "./callbacks.js";
import type { ClientCapabilities } from "./protocol.js";

/**
 * The option each of the three earlier kinds has of its own, and the kind it
 * answers: the one place these methods are named. A kind a revision adds
 * needs no row: `onInputRequest` answers it.
 */
const SUGAR = { onElicit: "elicitation/create", onSample: "sampling/createMessage", onListRoots: "roots/list" } as const;

/** How `onInputRequest`'s entry for `method` is written in messages. */
const mapOption = (method: string): string => `onInputRequest[${JSON.stringify(method)}]`;

/**
 * The callbacks by kind: each sugar option's, then each of
 * `onInputRequest`'s, checked.
 *
 * @throws TypeError for an option or entry that is not a function, a map that is not an object, or a kind
 *   answered twice
 * @throws RangeError naming an `onInputRequest` key that is no input-request kind, with the kinds this client knows
 * @internal
 */
export function answerersOf(callbacks: InputCallbacks): Answerers {
  const answerers: Record<string, Answerer | undefined> = Object.create(null);
  let sugar: keyof typeof SUGAR;
  for (sugar in SUGAR) {
    const answer = callbacks[sugar];
    if (answer === undefined) continue;
    if (typeof answer !== "function") throw new TypeError(`${sugar} must be a function, got ${typeof answer}.`);
    answerers[SUGAR[sugar]] = { answer: answer as AnyCallback, option: sugar };
  }
  const map: unknown = callbacks.onInputRequest;
  if (map === undefined) return answerers;
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
    if (earlier !== undefined) throw new TypeError(`${method} is answered twice, by ${earlier.option} and by ${option}: give each kind one callback.`);
    answerers[method] = { answer: answer as AnyCallback, option };
  }
  return answerers;
}

/**
 * The capabilities a client declares, derived from the kinds it answers
 * (each kind's capability in `revision`, the newest it will speak, from the
 * generated table): a server must not ask for what the client cannot
 * answer, so declaring more than the callbacks can serve would invite
 * requests that fail.
 *
 * `extra` is merged on top (e.g. `{ elicitation: { form: {}, url: {} } }`
 * when `onElicit` also handles URL mode, or `extensions`).
 * @internal
 */
export function deriveCapabilities(answerers: Answerers, revision: string, extra?: ClientCapabilities): ClientCapabilities {
  const capabilities: Record<string, unknown> = {};
  for (const method in answerers) {
    // Every key is a kind some spoken revision defines (answerersOf checked it); the newest that has it says how to declare it.
    const kind = (inputKindOf(revision, method) ?? newestInputKind(method))!;
    capabilities[kind.capability] = { ...(capabilities[kind.capability] as object | undefined), ...baseDeclaration(kind) };
  }
  return extra ? { ...capabilities, ...extra } : capabilities;
}

/**
 * What to do about a `method` request no callback answers: the option(s)
 * that would answer it (`onElicit or onInputRequest["elicitation/create"]`),
 * or, for a method no revision the client speaks defines as a kind, the
 * kinds it knows.
 * @internal
 */
export function withoutCallback(method: string): { readonly options: string } | { readonly known: string } {
  if (newestInputKind(method) === undefined) return { known: spokenInputKinds().join(", ") };
  let sugar: keyof typeof SUGAR;
  for (sugar in SUGAR) if (SUGAR[sugar] === method) return { options: `${sugar} or ${mapOption(method)}` };
  return { options: mapOption(method) };
}
