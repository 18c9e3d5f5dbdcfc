/**
 * Whether a call's rounds of questions repeated: what tells "the tool asks
 * many distinct questions" (raise the round limit) from "the same questions
 * came back" (the answers were not taken) when the rounds run out.
 */

/**
 * True when some round asked exactly what an earlier round had asked.
 * Compared as JSON, and only when the rounds ran out, so no round pays for it.
 *
 * @param rounds - each round's `inputRequests`, in order.
 * @internal
 */
export function anyRoundRepeated(rounds: readonly Record<string, unknown>[]): boolean {
  const seen = new Set<string>();
  for (const requests of rounds) {
    const fingerprint = JSON.stringify(requests);
    if (seen.has(fingerprint)) return true;
    seen.add(fingerprint);
  }
  return false;
}
