/**
 * Standard Schema (zod 4, valibot, arktype, …) at run time: telling one from
 * a JSON Schema, validating with the library's own `~standard.validate`, and
 * turning it into the JSON Schema `tools/list` advertises. No schema library
 * is imported: the schema object brings its own code, so none becomes a
 * dependency of the core, and nothing here generates code at run time.
 *
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { escapePointerToken } from "../../validate/issues.js";
import { describeIssues, type SchemaIssue } from "./schema-check.js";

/**
 * Any schema object that implements Standard Schema v1 (zod 4, valibot,
 * arktype, …), as `McpServer` takes it for a tool's `inputSchema` and
 * `outputSchema` or a prompt's `arguments`: the interface of
 * `@standard-schema/spec`, named here so a server needs one import.
 */
export type StandardSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output>;

/**
 * Turns a Standard Schema that does not implement Standard JSON Schema
 * (`~standard.jsonSchema`) into the JSON Schema to advertise, with the
 * library's own converter, e.g. valibot's `toJsonSchema` from
 * `@valibot/to-json-schema`. Given as `McpServer`'s `toJsonSchema` option.
 */
export type StandardSchemaConverter = {
  /**
   * @param schema - the tool's `inputSchema` or `outputSchema`
   * @returns a JSON Schema object (2020-12 unless its `$schema` says draft-07)
   * @throws whatever the converter throws for a schema it cannot express; registration then fails naming the tool
   */
  // A method, so a converter typed for its own library's schemas (valibot's `toJsonSchema`) is accepted.
  convert(schema: StandardSchemaV1): object;
}["convert"];

/** What checking a value with a Standard Schema gives: the library's output value, or the issues. @internal */
export type StandardCheck = { ok: true; value: unknown } | { ok: false; issues: SchemaIssue[]; message: string };

/** A Standard Schema's validation as the registry calls it; async only when the library's `validate` is. @internal */
export type StandardValidator = (value: unknown) => StandardCheck | Promise<StandardCheck>;

/**
 * Whether `value` is a Standard Schema (v1). arktype's types are functions,
 * so functions count too; a JSON Schema never has a `~standard` member.
 * @internal
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: { version?: unknown; validate?: unknown } })["~standard"];
  return typeof props === "object" && props !== null && props.version === 1 && typeof props.validate === "function";
}

function pointerOf(path: StandardSchemaV1.Issue["path"]): string {
  if (path === undefined) return "";
  let pointer = "";
  for (const segment of path) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    pointer += `/${escapePointerToken(typeof key === "symbol" ? (key.description ?? "") : String(key))}`;
  }
  return pointer;
}

function reading(result: StandardSchemaV1.Result<unknown>): StandardCheck {
  if (result.issues === undefined) return { ok: true, value: result.value };
  const issues = result.issues.map((issue) => ({ path: pointerOf(issue.path), message: issue.message }));
  return { ok: false, issues, message: describeIssues(issues) };
}

/**
 * The registry's validator for a Standard Schema: the library's own
 * `validate`, so its refinements, transforms and defaults apply and the
 * handler receives its output value. A failure reads like a JSON Schema
 * failure: JSON Pointer paths and one-line message.
 * @internal
 */
export function standardValidatorOf(schema: StandardSchemaV1): StandardValidator {
  const props = schema["~standard"];
  return (value) => {
    const result = props.validate(value);
    return typeof (result as PromiseLike<unknown>).then === "function" ? Promise.resolve(result).then(reading) : reading(result as StandardSchemaV1.Result<unknown>);
  };
}

/**
 * The JSON Schema to advertise for a Standard Schema: the library's own
 * Standard JSON Schema (`~standard.jsonSchema`, 2020-12) where it has one,
 * else `convert`'s answer.
 *
 * @param schema - the Standard Schema
 * @param io - `"input"` for an `inputSchema` (what callers send), `"output"` for an `outputSchema` (what is sent)
 * @param label - what the schema belongs to, e.g. `McpServer.tool("add"): inputSchema`
 * @param convert - the server's `toJsonSchema` option, if given
 * @param use - where the JSON Schema goes and which option gives a converter, for the error when there is none
 * @throws TypeError when there is no converter, or the converter fails or answers something else than an object
 * @internal
 */
export function jsonSchemaOfStandard(
  schema: StandardSchemaV1,
  io: "input" | "output",
  label: string,
  convert: StandardSchemaConverter | undefined,
  use: { shownIn: string; option: string } = { shownIn: "tools/list could not advertise it", option: "McpServer's toJsonSchema option" },
): Record<string, unknown> {
  const props = schema["~standard"] as StandardSchemaV1.Props & { jsonSchema?: { input?: unknown; output?: unknown } };
  const vendor = typeof props.vendor === "string" ? props.vendor : "Standard Schema";
  const native = props.jsonSchema?.[io];
  if (typeof native !== "function" && convert === undefined) {
    throw new TypeError(
      `${label} is a ${vendor} schema without a JSON Schema converter, so ${use.shownIn}: use a library that ` +
        "implements Standard JSON Schema (~standard.jsonSchema, as zod 4 and arktype do), wrap a valibot schema with " +
        `toStandardJsonSchema(...) from @valibot/to-json-schema, or pass ${use.option}`,
    );
  }
  let converted: unknown;
  try {
    converted = typeof native === "function" ? (native as (options: { target: string }) => unknown)({ target: "draft-2020-12" }) : convert!(schema);
  } catch (error) {
    throw new TypeError(
      `${label}: the ${vendor} schema cannot be expressed as JSON Schema (${(error as Error)?.message ?? String(error)}); ` +
        "describe it with types JSON Schema has (a transform or custom check cannot be), or give a JSON Schema instead",
      { cause: error },
    );
  }
  if (typeof converted !== "object" || converted === null || Array.isArray(converted)) {
    throw new TypeError(`${label}: the ${vendor} converter returned ${Array.isArray(converted) ? "an array" : typeof converted}, not a JSON Schema object`);
  }
  return converted as Record<string, unknown>;
}
