import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

/** One problem a JSON Schema found in a value. */
export interface SchemaIssue {
  /** JSON Pointer into the value, `""` for the value itself. */
  path: string;
  message: string;
}

/** The outcome of checking a value against a tool's or prompt's schema. */
export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[]; message: string };

/** A compiled JSON Schema: checks one value. */
export type SchemaValidator = (value: unknown) => SchemaCheck;

/**
 * Compiles a tool's JSON Schema into a {@link SchemaValidator}; throws a
 * `TypeError` for a schema it cannot use. `McpServer` takes one as
 * `compileSchema` to replace the built-in AJV compiler (for instance on an
 * edge runtime that forbids generating code at run time).
 */
export type SchemaCompiler = (schema: unknown, label: string) => SchemaValidator;

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

let ajv2020: Ajv2020 | undefined;
let ajvDraft7: Ajv | undefined;

// Compiled lazily: a server that registers no schema never builds a compiler.
function compilerFor(dialect: unknown): Ajv | Ajv2020 {
  if (dialect === undefined || (typeof dialect === "string" && /json-schema\.org\/draft\/2020-12\/schema#?$/.test(dialect))) {
    if (ajv2020 === undefined) {
      ajv2020 = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv2020);
    }
    return ajv2020;
  }
  if (typeof dialect === "string" && /json-schema\.org\/draft-0[67]\/schema#?$/.test(dialect)) {
    if (ajvDraft7 === undefined) {
      ajvDraft7 = new Ajv({ strict: false, allErrors: true });
      addFormats(ajvDraft7);
    }
    return ajvDraft7;
  }
  throw new TypeError(
    `unsupported JSON Schema dialect ${JSON.stringify(dialect)}: this SDK validates 2020-12 (the default when $schema is absent) and draft-07`,
  );
}

function toIssues(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((error) => {
    let path = error.instancePath;
    if (error.keyword === "required") path += `/${String((error.params as { missingProperty?: unknown }).missingProperty)}`;
    if (error.keyword === "additionalProperties") path += `/${String((error.params as { additionalProperty?: unknown }).additionalProperty)}`;
    const message = error.keyword === "required" ? "is required" : error.keyword === "additionalProperties" ? "is not allowed" : (error.message ?? "is invalid");
    return { path, message };
  });
}

/**
 * Describes issues in one line, e.g. `/location is required; /days must be integer`.
 * @internal
 */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `${issue.path === "" ? "(root)" : issue.path} ${issue.message}`).join("; ");
}

/**
 * Compiles a tool's (or any registered) JSON Schema once, at registration.
 * Supports 2020-12 (the MCP default) and draft-07 via `$schema`.
 *
 * @param schema - the schema object
 * @param label - what the schema belongs to, for error messages
 * @throws TypeError when the schema is not an object, names an unsupported dialect, or does not compile
 * @internal
 */
export function compileJsonSchema(schema: unknown, label: string): SchemaValidator {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new TypeError(`${label} must be a JSON Schema object, got ${schema === null ? "null" : Array.isArray(schema) ? "an array" : typeof schema}`);
  }
  let validate: ValidateFunction;
  try {
    validate = compilerFor((schema as { $schema?: unknown }).$schema).compile(schema);
  } catch (error) {
    throw new TypeError(`${label} is not a valid JSON Schema: ${(error as Error).message}`, { cause: error });
  }
  return (value) => {
    if (validate(value)) return { ok: true };
    const issues = toIssues(validate.errors);
    return { ok: false, issues, message: describeIssues(issues) };
  };
}
