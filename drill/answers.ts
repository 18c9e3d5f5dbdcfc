// What the drill's server asks and what its clients answer, in one place, so
// both sides agree and the drill can tell a right result from a wrong one.

/** The question of round `k` of exchange `id` (elicitation message, or sampling prompt). */
export function questionText(id: string, k: number): string {
  return `q ${id} ${k}`;
}

/** The answer the drill's client gives to round `k` of exchange `id`. */
export function expectedAnswer(id: string, k: number): string {
  return `a-${id}-${k}`;
}

/** The answer to a question, read back from its text; `undefined` for a text the drill never asks. */
export function answerTo(question: string): string | undefined {
  const match = /^q (\S+) (\d)$/.exec(question);
  return match === null ? undefined : expectedAnswer(match[1]!, Number(match[2]));
}

/** The text of the complete result of an `mrtr` call. */
export function expectedMrtrText(id: string, plan: string): string {
  return `mrtr ${id} ${[...plan].map((_kind, k) => expectedAnswer(id, k)).join(",")}`;
}
