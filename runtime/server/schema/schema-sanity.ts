import { isObject } from "../../protocol/guards.js";
import { escapePointerToken } from "../../validate/issues.js";
/**
 * The schema checks a compiler must make before it validates anything with
 * a schema, for the eval-free path: AJV refuses a schema its meta-schema
 * rejects, and `@cfworker/json-schema` would instead take it at its word.
 * This checks the keywords whose malformed values change an answer (types,
 * bounds, patterns, `required`, `enum`, nested schemas) and that every
 * `$ref` points inside the schema, so a broken schema fails at
 * registration on every runtime (fails closed) instead of accepting input.
 *
 * @module
 * @internal
 */

const TYPES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

/** Keywords whose value is a schema. */
const ONE_SCHEMA = [
  "additionalProperties",
  "additionalItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
] as const;
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const;
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"] as const;

function patternError(pattern: unknown): string | undefined {
  if (typeof pattern !== "string") return "must be a string";
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message})`;
  }
}

/** Resolves a local JSON Pointer `$ref` ("#", "#/$defs/x") in `root`; `false` when it names nothing there. */
function resolvesLocally(root: unknown, ref: string): boolean {
  if (ref === "#") return true;
  if (!ref.startsWith("#/")) return false;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return false;
    }
    if (!isObject(node) && !Array.isArray(node)) return false;
    if (!Object.hasOwn(node, segment)) return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return typeof node === "boolean" || isObject(node);
}

/**
 * The first problem of `schema`, as `"<pointer> <what is wrong>"`, or
 * `undefined` when it is usable.
 *
 * @param schema - a JSON Schema.
 * @param dialect - the dialect it is read in (draft-07 also takes the tuple form of `items`).
 * @internal
 */
export function schemaProblem(schema: unknown, dialect: "2020-12" | "draft-07"): string | undefined {
  return problemAt(schema, schema, "#", dialect === "draft-07");
}

function problemAt(root: unknown, schema: unknown, at: string, draft7: boolean): string | undefined {
  if (typeof schema === "boolean") return undefined;
  if (!isObject(schema)) return `${at} must be a schema (an object or a boolean)`;
  const type = schema.type;
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    if (list.length === 0 || list.some((name) => typeof name !== "string" || !TYPES.has(name)) || new Set(list).size !== list.length) {
      return `${at}/type must be one of ${[...TYPES].join(", ")} or a list of distinct ones`;
    }
  }
  for (const key of NUMBERS) {
    // draft-04's boolean exclusive bounds are not supported by either dialect this SDK takes.
    if (schema[key] !== undefined && (typeof schema[key] !== "number" || !Number.isFinite(schema[key]))) return `${at}/${key} must be a number`;
  }
  if (schema.multipleOf !== undefined && !(typeof schema.multipleOf === "number" && schema.multipleOf > 0)) {
    return `${at}/multipleOf must be a number greater than 0`;
  }
  for (const key of COUNTS) {
    if (schema[key] !== undefined && !(Number.isSafeInteger(schema[key]) && (schema[key] as number) >= 0)) {
      return `${at}/${key} must be a non-negative integer`;
    }
  }
  if (schema.pattern !== undefined) {
    const problem = patternError(schema.pattern);
    if (problem) return `${at}/pattern ${problem}`;
  }
  if (schema.required !== undefined) {
    const required = schema.required;
    if (!Array.isArray(required) || required.some((name) => typeof name !== "string") || new Set(required).size !== required.length) {
      return `${at}/required must be a list of distinct strings`;
    }
  }
  if (schema.enum !== undefined && !(Array.isArray(schema.enum) && schema.enum.length > 0)) return `${at}/enum must be a non-empty array`;
  if (schema.uniqueItems !== undefined && typeof schema.uniqueItems !== "boolean") return `${at}/uniqueItems must be a boolean`;
  if (schema.format !== undefined && typeof schema.format !== "string") return `${at}/format must be a string`;
  if (schema.$ref !== undefined) {
    if (typeof schema.$ref !== "string" || !resolvesLocally(root, schema.$ref)) {
      return `${at}/$ref must point inside the schema ("#/$defs/..."): other references cannot be resolved here`;
    }
  }
  for (const key of ONE_SCHEMA) {
    if (schema[key] !== undefined) {
      const problem = problemAt(root, schema[key], `${at}/${key}`, draft7);
      if (problem) return problem;
    }
  }
  if (schema.items !== undefined) {
    const items = schema.items;
    if (Array.isArray(items) && !draft7) return `${at}/items must be a schema (2020-12 writes a tuple as prefixItems)`;
    const list = Array.isArray(items) ? items : [items];
    for (const [index, item] of list.entries()) {
      const problem = problemAt(root, item, Array.isArray(items) ? `${at}/items/${index}` : `${at}/items`, draft7);
      if (problem) return problem;
    }
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) return `${at}/${key} must be a non-empty list of schemas`;
    for (const [index, item] of list.entries()) {
      const problem = problemAt(root, item, `${at}/${key}/${index}`, draft7);
      if (problem) return problem;
    }
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isObject(map)) return `${at}/${key} must be an object of schemas`;
    for (const [name, item] of Object.entries(map)) {
      if (key === "patternProperties") {
        const problem = patternError(name);
        if (problem) return `${at}/patternProperties key ${JSON.stringify(name)} ${problem}`;
      }
      const problem = problemAt(root, item, `${at}/${key}/${escapePointerToken(name)}`, draft7);
      if (problem) return problem;
    }
  }
  return undefined;
}
