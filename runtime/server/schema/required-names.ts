/**
 * A `required` entry that names no property: a typo or a renamed property
 * that would make every call fail its schema (or every result fail its
 * `outputSchema`). Checked at registration, for JSON Schemas as given and
 * for the JSON Schema a Standard Schema converts to. Its type-level twin,
 * for literal schemas, is `types/required-names.ts`; both follow one rule:
 *
 * where a schema object has `properties` and admits no other members (no
 * `patternProperties`, no `additionalProperties` other than `false`), each
 * entry of its `required` names one of them, or one of the properties of
 * the object schema an `allOf`/`anyOf`/`oneOf` branch sits in. Nested
 * schemas (`properties`, `items`, `prefixItems`, combinator branches) are
 * checked the same way; a schema without `properties` is not.
 *
 * @module
 * @internal
 */
import { isObject } from "../../protocol/guards.js";
import { escapePointerToken } from "../../validate/issues.js";

/** A `required` entry that names no property, where it is, and the names it could have been. */
export interface UnknownRequiredName {
  /** The entry as written. */
  readonly entry: string;
  /** JSON Pointer of the `required` list holding it, e.g. `#/properties/owner/required`. */
  readonly at: string;
  /** The property names the entry may take there. */
  readonly known: readonly string[];
}

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

/**
 * The first `required` entry of `schema` that names no property, or
 * `undefined` when there is none.
 *
 * @param schema - a JSON Schema (anything else is left to the compiler's own checks).
 * @internal
 */
export function unknownRequiredName(schema: unknown): UnknownRequiredName | undefined {
  return walk(schema, "#", []);
}

function walk(schema: unknown, at: string, lent: readonly string[]): UnknownRequiredName | undefined {
  if (!isObject(schema)) return undefined;
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : undefined;
  if (properties !== undefined && Array.isArray(schema.required) && !admitsOthers(schema)) {
    const known = [...properties, ...lent];
    const entry = schema.required.find((name): name is string => typeof name === "string" && !known.includes(name));
    if (entry !== undefined) return { entry, at: `${at}/required`, known };
  }
  if (properties !== undefined) {
    for (const name of properties) {
      const found = walk((schema.properties as Record<string, unknown>)[name], `${at}/properties/${escapePointerToken(name)}`, []);
      if (found) return found;
    }
  }
  if (isObject(schema.items)) {
    const found = walk(schema.items, `${at}/items`, []);
    if (found) return found;
  }
  const toBranches = [...(properties ?? []), ...lent];
  for (const key of ["prefixItems", ...COMBINATORS] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [index, branch] of list.entries()) {
      const found = walk(branch, `${at}/${key}/${index}`, key === "prefixItems" ? [] : toBranches);
      if (found) return found;
    }
  }
  return undefined;
}

/** Whether the object schema admits members beyond `properties`, so `required` may name others. */
function admitsOthers(schema: Record<string, unknown>): boolean {
  return schema.patternProperties !== undefined || (schema.additionalProperties !== undefined && schema.additionalProperties !== false);
}

/**
 * The registration error for an unknown `required` entry: what is wrong,
 * where, and what to do.
 *
 * @param label - who registers the schema and which one, e.g. `McpServer.tool("add"): inputSchema`.
 * @param found - the entry {@link unknownRequiredName} found.
 * @internal
 */
export function unknownRequiredNameError(label: string, found: UnknownRequiredName): TypeError {
  const known = found.known.length === 0 ? "it lists none" : `it lists ${found.known.map((name) => JSON.stringify(name)).join(", ")}`;
  return new TypeError(
    `${label}: required entry ${JSON.stringify(found.entry)} at ${found.at} names no property (${known}); ` +
      "fix the entry, or add the property to the properties beside it",
  );
}
