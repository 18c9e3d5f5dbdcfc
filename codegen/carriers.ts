import { isObject, refName, type SchemaDocument, type SchemaNode } from "./json.js";
import type { ProtocolModel } from "./model.js";

/**
 * Where a breaking change reaches the wire: the messages of a revision that
 * carry a definition (through `$ref`s) or are a method, by direction. What
 * `--add-revision` lists as the duties of a breaking revision's adapter.
 *
 * @module
 */

/** The definitions `name` reaches through `$ref`s, itself included. */
function reachable(defs: Record<string, SchemaNode>, name: string, memo: Map<string, Set<string>>): Set<string> {
  const known = memo.get(name);
  if (known) return known;
  const seen = new Set<string>();
  const stack = [name];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next) || !defs[next]) continue;
    seen.add(next);
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (isObject(node)) {
        const ref = refName(node);
        if (ref !== undefined) stack.push(ref);
        for (const value of Object.values(node)) visit(value);
      }
    };
    visit(defs[next]);
  }
  memo.set(name, seen);
  return seen;
}

/** Where a breaking change reaches the wire: the messages an adapter has to map for it, in each direction. */
export interface Carriers {
  /** Results a server sends (model → wire): the methods whose result carries the subject. */
  results: string[];
  /** Request params a server receives (wire → model): the methods whose params carry it. */
  params: string[];
  /** Notifications a server sends (model → wire). */
  notifications: string[];
}

/**
 * The messages of `after` that carry `subject` (a definition, or a method):
 * what the adapter of a breaking revision must map for that change. Input
 * requests travel inside results and their answers inside params, so they
 * count with the methods that may return `input_required`.
 */
export function carriersOf(subject: string, after: SchemaDocument, model: ProtocolModel): Carriers {
  const memo = new Map<string, Set<string>>();
  const reaches = (definition: string | null) => definition !== null && reachable(after.$defs, definition, memo).has(subject);
  const carriers: Carriers = { results: [], params: [], notifications: [] };
  const asking = model.methods.filter((entry) => entry.direction === "client" && entry.inputRequired).map((entry) => entry.method);
  for (const entry of model.methods) {
    const own = entry.method === subject;
    if (entry.direction === "client") {
      if (own || reaches(entry.result) || (entry.inputRequired && reaches(model.inputRequiredResult))) carriers.results.push(entry.method);
      if (own || reaches(entry.params ?? entry.request)) carriers.params.push(entry.method);
    } else if (entry.direction === "input") {
      // The request goes out inside an InputRequiredResult; its answer comes back in inputResponses.
      if (own || reaches(entry.request)) carriers.results.push(...asking);
      if (own || reaches(entry.result)) carriers.params.push(...asking);
    }
  }
  for (const entry of model.notifications) {
    if (entry.direction === "server" && (entry.method === subject || reaches(entry.notification))) carriers.notifications.push(entry.method);
  }
  const unique = (names: string[]) => [...new Set(names)].sort();
  return { results: unique(carriers.results), params: unique(carriers.params), notifications: unique(carriers.notifications) };
}
