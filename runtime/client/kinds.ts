/**
 * The client's reading of the generated input-kind table: the callbacks by
 * kind, built from the options and checked; the capabilities they declare;
 * and what a message says when a kind has no callback.
 *
 * Part of the client's main chunk, since `Client.connect` needs it before
 * anything is sent: a chunk of its own would only add a file to what a
 * browser loads up front. The 2025 back channel, a lazy module, gets
 * `withoutCallback` in its kit rather than importing it (docs/internals.md).
 *
 * @internal
 * @module
 */
import { baseDeclaration, inputKindOf, inputRequestOption, newestInputKind, SUGAR_OPTIONS, spokenInputKinds } from "../protocol/input-kinds.js";
import type { Answerer, Answerers, AnyCallback, InputCallbacks } from "./callbacks.js";
import type { ClientCapabilities } from "./protocol.js";

/**
 * The callbacks by kind: each sugar option's, checked; `onInputRequest`'s
 * are checked and added by `input-request-map.ts`, loaded only when it is
 * given (its messages are most of its weight).
 *
 * @throws TypeError for an option that is not a function, and what `addInputRequestMap` throws
 * @internal
 */
export async function answerersOf(callbacks: InputCallbacks): Promise<Answerers> {
  const answerers: Record<string, Answerer | undefined> = Object.create(null);
  let sugar: keyof typeof SUGAR_OPTIONS;
  for (sugar in SUGAR_OPTIONS) {
    const answer = callbacks[sugar];
    if (answer === undefined) continue;
    if (typeof answer !== "function") throw new TypeError(`${sugar} must be a function, got ${typeof answer}.`);
    answerers[SUGAR_OPTIONS[sugar]] = { answer: answer as AnyCallback, option: sugar };
  }
  if (callbacks.onInputRequest !== undefined) {
    (await import("./input-request-map.js")).addInputRequestMap(answerers, callbacks.onInputRequest, spokenInputKinds(), inputRequestOption);
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
  let sugar: keyof typeof SUGAR_OPTIONS;
  for (sugar in SUGAR_OPTIONS) if (SUGAR_OPTIONS[sugar] === method) return { options: `${sugar} or ${inputRequestOption(method)}` };
  return { options: inputRequestOption(method) };
}
