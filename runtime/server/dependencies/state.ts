import { isObject } from "../../protocol/guards.js";
/**
 * The plaintext the dependency runner keeps in `requestState` between rounds
 * (the server seals it; this module never sees a token).
 *
 * - `q`: the questions asked last round, input key → digest of the rendered
 *   question. An answer is only taken for a key asked with the same digest,
 *   so an answer the client volunteers without the echoed state, or for a
 *   question that has since changed, is never consumed.
 * - `a`: the answers accepted so far, input key → `{ d: digest, r: answer }`.
 * - `r`: the questions asked again last round because their answer did not
 *   fit, input key → digest of the question as first asked. The re-asked
 *   request carries the reason in its message, so its own digest (in `q`)
 *   differs; the next answer is matched through this entry, and a second
 *   misfit ends the call instead of asking a third time.
 * - `n`: the round number (1 for the first `input_required`), for the log.
 *
 * A version tag guards the format: a state from an older release, from a
 * hand-written handler, or simply not JSON reads as empty, so the worst case
 * is asking again, never a crash.
 */

/** Identifies this format inside the sealed envelope's `s`. */
const STATE_VERSION = "mcp-roundtrip/needs@1";

/** One accepted answer, pinned to the digest of the question it answered. */
export interface RecordedAnswer {
  d: string;
  r: unknown;
}

/** What the runner carries from one round to the next. */
export interface DependencyState {
  /** Input key → digest of the question asked under it last round. */
  asked: Record<string, unknown>;
  /** Input key → the answer kept for it. Entries are checked where used, so a malformed one is simply not found. */
  answers: Record<string, unknown>;
  /** Input key → digest of the question (as first asked) that was asked again after a misfit answer. */
  reasked: Record<string, unknown>;
  /** How many `input_required` rounds came before this one. */
  round: number;
}

/** An empty state: nothing asked, nothing answered. */
export function emptyState(): DependencyState {
  return {
    asked: Object.create(null) as Record<string, unknown>,
    answers: Object.create(null) as Record<string, unknown>,
    reasked: Object.create(null) as Record<string, unknown>,
    round: 0,
  };
}

/**
 * Reads the plaintext state of a previous round. Anything that is not this
 * format (absent, foreign, garbled, another version) gives an empty state.
 *
 * @param plaintext - the verified, unsealed `requestState`, or `undefined` on a first call.
 */
export function decodeState(plaintext: unknown): Readonly<DependencyState> {
  if (typeof plaintext !== "string") return NO_STATE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext);
  } catch {
    return NO_STATE;
  }
  if (!isObject(parsed) || parsed.v !== STATE_VERSION) return NO_STATE;
  return {
    asked: isObject(parsed.q) ? parsed.q : NO_STATE.asked,
    answers: isObject(parsed.a) ? parsed.a : NO_STATE.answers,
    reasked: isObject(parsed.r) ? parsed.r : NO_STATE.reasked,
    round: Number.isSafeInteger(parsed.n) && (parsed.n as number) > 0 ? (parsed.n as number) : 0,
  };
}

/** The state read when there is none: shared and frozen, since a previous round's state is only ever read. */
const NO_STATE: Readonly<DependencyState> = Object.freeze({
  asked: Object.freeze(Object.create(null) as Record<string, unknown>),
  answers: Object.freeze(Object.create(null) as Record<string, unknown>),
  reasked: Object.freeze(Object.create(null) as Record<string, unknown>),
  round: 0,
});

/** The digest the question under `key` was asked with last round, if any. */
export function askedDigest(state: DependencyState, key: string): string | undefined {
  const digest = Object.hasOwn(state.asked, key) ? state.asked[key] : undefined;
  return typeof digest === "string" ? digest : undefined;
}

/** The digest of the question under `key` that was asked again last round after a misfit answer, if any. */
export function reaskedDigest(state: DependencyState, key: string): string | undefined {
  const digest = Object.hasOwn(state.reasked, key) ? state.reasked[key] : undefined;
  return typeof digest === "string" ? digest : undefined;
}

/** The answer kept for `key`, if a well-formed one is there. */
export function recordedAnswer(state: DependencyState, key: string): RecordedAnswer | undefined {
  const entry = Object.hasOwn(state.answers, key) ? state.answers[key] : undefined;
  return isObject(entry) && typeof entry.d === "string" && "r" in entry ? (entry as unknown as RecordedAnswer) : undefined;
}

/**
 * Writes the state for the next round as compact JSON.
 *
 * @param state - the questions asked this round and every answer to keep.
 */
export function encodeState(state: DependencyState): string {
  const encoded: Record<string, unknown> = { v: STATE_VERSION, q: state.asked, a: state.answers };
  // Only when something was asked again, so the common state stays as it was.
  for (const _key in state.reasked) {
    encoded.r = state.reasked;
    break;
  }
  if (state.round > 0) encoded.n = state.round;
  return JSON.stringify(encoded);
}
