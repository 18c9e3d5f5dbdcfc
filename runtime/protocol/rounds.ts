/**
 * Whether a call's rounds of questions repeated (client and server alike): what tells "the tool asks
 * many distinct questions" (raise the round limit) from "the same questions
 * came back" (the answers were not taken) when the rounds run out.
 */

/**
 * True when some round asked exactly what an earlier round had asked. The
 * requests are compared as JSON, not their keys (a task's keys carry the
 * round), and only when the rounds ran out, so no round pays for it.
 *
 * @param rounds - each round's `inputRequests`, in order.
 * @internal
 */
export function anyRoundRepeated(rounds: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const requests of rounds) {
    const fingerprint = JSON.stringify(Object.values(requests as object));
    if (seen.has(fingerprint)) return true;
    seen.add(fingerprint);
  }
  return false;
}
