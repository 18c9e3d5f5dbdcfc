import { describeIssues, OK, type SchemaIssue, type SchemaValidator } from "./schema-check.js";
import { isPlainObject } from "../../protocol/guards.js";
import { escapePointerToken } from "../../validate/issues.js";

/**
 * Checks the simplest tool schemas without AJV, answering exactly what AJV
 * (2020-12, `allErrors`) answers, so a server whose tools take a few typed
 * arguments never loads AJV's compiler (some 10 MiB and ~100 ms):
 *
 * `{ type: "object", properties?: { name: { type } }, required?: [names] }`,
 * where each `type` is `"string"`, `"number"`, `"integer"`, `"boolean"` or
 * `"null"`, `required` lists distinct names, and `title`/`description` strings
 * may appear at either level. Anything else (another keyword, `$schema`, a
 * name `"__proto__"`, a malformed value) is AJV's to compile or reject.
 *
 * @module
 * @internal
 */

type Primitive = "string" | "number" | "integer" | "boolean" | "null";

/** Each test is AJV's generated code for the type, word for word (`number` admits NaN, `integer` Infinity). */
const TYPE_TESTS: Readonly<Record<Primitive, (value: unknown) => boolean>> = Object.freeze({
  string: (value: unknown) => typeof value === "string",
  number: (value: unknown) => typeof value === "number",
  integer: (value: unknown) => typeof value === "number" && !((value as number) % 1) && !Number.isNaN(value),
  boolean: (value: unknown) => typeof value === "boolean",
  null: (value: unknown) => value === null,
});

const ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description"]);
const ROOT_KEYWORDS: ReadonlySet<string> = new Set(["type", "properties", "required", "title", "description"]);
const MEMBER_KEYWORDS: ReadonlySet<string> = new Set(["type", "title", "description"]);

interface Property {
  readonly name: string;
  readonly test: (value: unknown) => boolean;
  /** AJV's instancePath for the member: a JSON Pointer segment. */
  readonly path: string;
  readonly message: string;
}

/** Only own string-valued annotations besides the allowed keywords: AJV's meta-schema rejects non-string ones. */
function onlyKeywords(schema: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(schema)) {
    if (!allowed.has(key)) return false;
    if (ANNOTATIONS.has(key) && typeof schema[key] !== "string") return false;
  }
  return Object.getOwnPropertySymbols(schema).length === 0;
}

/** Checks a value: `undefined` when it passes, else AJV's issues in AJV's order. @internal */
export type IssueFinder = (value: unknown) => SchemaIssue[] | undefined;

/**
 * A checker for `schema` when it is in the subset above, else `undefined`.
 *
 * @param schema - a tool's inputSchema (or outputSchema).
 * @internal
 */
export function simpleObjectChecker(schema: object): IssueFinder | undefined {
  if (!isPlainObject(schema) || schema.type !== "object" || !onlyKeywords(schema, ROOT_KEYWORDS)) return undefined;
  const properties: Property[] = [];
  if (schema.properties !== undefined) {
    if (!isPlainObject(schema.properties)) return undefined;
    for (const [name, member] of Object.entries(schema.properties)) {
      if (name === "__proto__" || !isPlainObject(member) || !onlyKeywords(member, MEMBER_KEYWORDS)) return undefined;
      const type = member.type;
      if (typeof type !== "string" || !Object.hasOwn(TYPE_TESTS, type)) return undefined;
      properties.push({
        name,
        test: TYPE_TESTS[type as Primitive],
        path: "/" + escapePointerToken(name),
        message: `must be ${type}`,
      });
    }
  }
  let required: readonly string[] = [];
  if (schema.required !== undefined) {
    const list = schema.required;
    if (!Array.isArray(list) || !list.every((name) => typeof name === "string" && name !== "__proto__")) return undefined;
    if (new Set(list).size !== list.length) return undefined; // AJV rejects the schema: let it say so
    required = [...(list as string[])];
  }
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return [{ path: "", message: "must be object" }];
    const record = value as Record<string, unknown>;
    let issues: SchemaIssue[] | undefined;
    // AJV's order: every missing required member, then each property in schema order.
    for (const name of required) {
      if (record[name] === undefined) (issues ??= []).push({ path: "/" + name, message: "is required" });
    }
    for (const property of properties) {
      const member = record[property.name];
      if (member !== undefined && !property.test(member)) (issues ??= []).push({ path: property.path, message: property.message });
    }
    return issues;
  };
}

/**
 * The first check of every schema compiler: a schema is a JSON object.
 * @throws TypeError when `schema` is not one
 * @internal
 */
export function assertSchemaObject(schema: unknown, label: string): asserts schema is object {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new TypeError(`${label} must be a JSON Schema object, got ${schema === null ? "null" : Array.isArray(schema) ? "an array" : typeof schema}`);
  }
}

/**
 * A validator for a schema in the simple subset, answered without the
 * general engine; `undefined` when the engine must compile it.
 * @internal
 */
export function simpleValidatorOf(schema: object): SchemaValidator | undefined {
  const simple = simpleObjectChecker(schema);
  if (simple === undefined) return undefined;
  return (value) => {
    const issues = simple(value);
    return issues === undefined ? OK : { ok: false, issues, message: describeIssues(issues) };
  };
}
