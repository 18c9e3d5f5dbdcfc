/**
 * The plaintext the dependency runner keeps in `requestState` between rounds
 * (the server seals it; this module never sees a token).
 *
 * - `q`: the questions asked last round, input key → digest of the rendered
 *   question. An answer is only taken for a key asked with the same digest,
 *   so an answer the client volunteers without the echoed state, or for a
 *   question that has since changed, is never consumed.
 * - `a`: the answers accepted so far, input key → `{ d: digest, r: answer }`.
 *
 * A version tag guards the format: a state from an older release, from a
 * hand-written handler, or simply not JSON reads as empty, so the worst case
 * is asking again, never a crash.
 */

/** Identifies this format inside the sealed envelope's `s`. */
export const STATE_VERSION = "mcp-roundtrip/needs@1";

/** One accepted answer, pinned to the digest of the question it answered. */
export interface RecordedAnswer {
  d: string;
  r: unknown;
}

/** What the runner carries from one round to the next. */
export interface DependencyState {
  asked: Map<string, string>;
  answers: Map<string, RecordedAnswer>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An empty state: nothing asked, nothing answered. */
export function emptyState(): DependencyState {
  return { asked: new Map(), answers: new Map() };
}

/**
 * Reads the plaintext state of a previous round. Anything that is not this
 * format (absent, foreign, garbled, another version) gives an empty state;
 * malformed entries are dropped one by one.
 *
 * @param plaintext - the verified, unsealed `requestState`, or `undefined` on a first call.
 */
export function decodeState(plaintext: unknown): DependencyState {
  const state = emptyState();
  if (typeof plaintext !== "string") return state;
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext);
  } catch {
    return state;
  }
  if (!isObject(parsed) || parsed.v !== STATE_VERSION) return state;
  if (isObject(parsed.q)) {
    for (const [key, digest] of Object.entries(parsed.q)) {
      if (typeof digest === "string") state.asked.set(key, digest);
    }
  }
  if (isObject(parsed.a)) {
    for (const [key, entry] of Object.entries(parsed.a)) {
      if (isObject(entry) && typeof entry.d === "string" && "r" in entry) state.answers.set(key, { d: entry.d, r: entry.r });
    }
  }
  return state;
}

/**
 * Writes the state for the next round as compact JSON.
 *
 * @param state - the questions asked this round and every answer to keep.
 */
export function encodeState(state: DependencyState): string {
  return JSON.stringify({ v: STATE_VERSION, q: Object.fromEntries(state.asked), a: Object.fromEntries(state.answers) });
}
