// Reads the spec's example messages from ../shared (reference data, never copied into the repo).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Directory of the 2026-07-28 examples, one folder per definition. */
export const EXAMPLES_DIR = fileURLToPath(new URL("../../../shared/mcp-schema/2026-07-28/examples", import.meta.url));

/** A fresh copy of one example message. */
export function example(definition: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${EXAMPLES_DIR}/${definition}/${file}.json`, "utf8")) as Record<string, unknown>;
}

/** Marks a member for removal in {@link mutate}. */
export const REMOVE = Symbol("remove");

/** A copy of `value` with the member at JSON Pointer `pointer` replaced (or removed). */
export function mutate<T>(value: T, pointer: string, replacement: unknown): T {
  const copy = structuredClone(value) as unknown;
  const tokens = pointer.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = tokens.pop()!;
  let parent = copy as Record<string, unknown>;
  for (const token of tokens) parent = parent[token] as Record<string, unknown>;
  if (replacement === REMOVE) delete parent[last];
  else parent[last] = replacement;
  return copy as T;
}
