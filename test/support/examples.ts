// The spec's example messages (through the resolver, see schema.ts), loaded once
// per test file so `example()` can stay synchronous.
import { publishedExamples } from "./schema.js";

const byKey = new Map((await publishedExamples("2026-07-28")).map((entry) => [`${entry.definition}/${entry.name}`, entry.value]));

/** A fresh copy of one example message of 2026-07-28. */
export function example(definition: string, file: string): Record<string, unknown> {
  const value = byKey.get(`${definition}/${file}`);
  if (value === undefined) throw new Error(`no example ${definition}/${file}.json is pinned in schema/sources.json`);
  return structuredClone(value) as Record<string, unknown>;
}

/** Marks a member for removal in {@link mutate}. */
export const REMOVE = Symbol("remove");

/** A copy of `value` with the member at JSON Pointer `pointer` replaced (or removed). */
export function mutate<T>(value: T, pointer: string, replacement: unknown): T {
  const copy = structuredClone(value) as unknown;
  const tokens = pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = tokens.pop()!;
  let parent = copy as Record<string, unknown>;
  for (const token of tokens) parent = parent[token] as Record<string, unknown>;
  if (replacement === REMOVE) delete parent[last];
  else parent[last] = replacement;
  return copy as T;
}
