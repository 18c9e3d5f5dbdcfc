/**
 * Scope strings (RFC 6749 §3.3: space-delimited, order free).
 *
 * @internal
 */

/** The union of space-delimited scope lists, in first-seen order; `undefined` when it is empty. @internal */
export function unionScopes(...lists: (string | undefined)[]): string | undefined {
  const seen = new Set<string>();
  for (const list of lists) for (const scope of list?.split(/[ \t]+/) ?? []) if (scope !== "") seen.add(scope);
  return seen.size === 0 ? undefined : [...seen].join(" ");
}
