/**
 * What every schema compiler shares: the shapes of a check's answer, the
 * dialects this SDK takes, and the one-line description of issues. No
 * compiler lives here, so importing this pulls in neither AJV nor the
 * eval-free validator.
 *
 * @module
 */
import type { ValidationIssue } from "../../validate/issues.js";

/** One problem a JSON Schema found in a value: the package's one issue shape, `{ path, message }`. */
export type SchemaIssue = ValidationIssue;

/** The outcome of checking a value against a tool's or prompt's schema. */
export type SchemaCheck =
  | {
      /** The value conforms. */
      ok: true;
    }
  | {
      /** The value does not conform. */
      ok: false;
      /** Every problem found, each at its JSON Pointer. */
      issues: SchemaIssue[];
      /** One line summing the issues up, fit for an error message to the caller. */
      message: string;
    };

/**
 * A compiled JSON Schema: checks one value. A validator compiled on first
 * use (where its compiler can only load asynchronously) also has
 * `loading`, a promise while that compiler is still on its way: await it
 * before the first check.
 */
export type SchemaValidator = ((value: unknown) => SchemaCheck) & {
  /** On a validator compiled on first use: a promise while its compiler is still loading, `undefined` once it can check. */
  loading?: () => Promise<unknown> | undefined;
};

/**
 * A validator that compiles `schema` on first use, once `loaded()` has what
 * it needs; `loading` says when that is not yet so.
 * @internal
 */
export function lateValidator<Loaded>(
  label: string,
  what: string,
  loaded: () => Loaded | undefined,
  loading: () => Promise<unknown> | undefined,
  compile: (loaded: Loaded) => (value: unknown) => SchemaCheck,
): SchemaValidator {
  let compiled: ((value: unknown) => SchemaCheck) | undefined;
  const validator: SchemaValidator = (value) => {
    if (compiled === undefined) {
      const late = loaded();
      if (late === undefined) throw new Error(`${label}: the ${what} has not loaded yet`);
      compiled = compile(late);
    }
    return compiled(value);
  };
  validator.loading = loading;
  return validator;
}

/**
 * Compiles a tool's JSON Schema into a {@link SchemaValidator}; throws a
 * `TypeError` for a schema it cannot use. `McpServer` takes one as
 * `compileSchema` to replace the built-in AJV compiler (for instance on an
 * edge runtime that forbids generating code at run time).
 */
export type SchemaCompiler = (schema: unknown, label: string) => SchemaValidator;

/** A JSON Schema dialect this SDK validates. @internal */
export type Dialect = "2020-12" | "draft-07";

/**
 * The dialect a schema's `$schema` names: 2020-12 when absent.
 *
 * @throws TypeError for any other dialect.
 * @internal
 */
export function dialectOf(declared: unknown): Dialect {
  if (declared === undefined || (typeof declared === "string" && /json-schema\.org\/draft\/2020-12\/schema#?$/.test(declared))) {
    return "2020-12";
  }
  if (typeof declared === "string" && /json-schema\.org\/draft-0[67]\/schema#?$/.test(declared)) return "draft-07";
  throw new TypeError(`unsupported JSON Schema dialect ${JSON.stringify(declared)}: this SDK validates 2020-12 (the default when $schema is absent) and draft-07`);
}

/**
 * Describes issues in one line, e.g. `/location is required; /days must be integer`.
 * @internal
 */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `${issue.path === "" ? "(root)" : issue.path} ${issue.message}`).join("; ");
}

/** The one answer for a value that passes, shared: checked on every tool call, read by the registry only. */
export const OK: SchemaCheck = Object.freeze({ ok: true });

/**
 * The answer for a value the validator itself failed on (AJV's deep
 * equality throws on an object whose `toString` member is not a function,
 * under `uniqueItems`, `enum` or `const`): rejected, as a tool error the
 * caller can read, never an internal error. @internal
 */
export const UNCHECKABLE: SchemaCheck = Object.freeze({
  ok: false,
  issues: [{ path: "", message: "could not be checked against the schema (the validator failed on this value)" }],
  message: "(root) could not be checked against the schema (the validator failed on this value)",
}) as SchemaCheck;

/** The error a schema that does not compile raises at registration. @internal */
export function notValid(label: string, error: unknown): TypeError {
  return new TypeError(`${label} is not a valid JSON Schema: ${(error as Error).message}`, { cause: error });
}

/**
 * Which schema compiler `McpServer` uses: `"auto"` (the default) is AJV
 * where the runtime allows generating code and the package was resolved
 * under the `node` condition, else the eval-free validator; `"ajv"` and
 * `"eval-free"` force one; a function is your own compiler.
 */
export type SchemaCompilerChoice = "auto" | "ajv" | "eval-free" | SchemaCompiler;

/**
 * Resolves a {@link SchemaCompilerChoice} against the compilers one build offers.
 *
 * @throws TypeError for anything else, or `"ajv"` where the build has no AJV.
 * @internal
 */
export function pickCompiler(
  choice: SchemaCompilerChoice | undefined,
  offered: { auto: SchemaCompiler; ajv: SchemaCompiler | undefined; evalFree: SchemaCompiler },
): SchemaCompiler {
  if (typeof choice === "function") return choice;
  if (choice === undefined || choice === "auto") return offered.auto;
  if (choice === "eval-free") return offered.evalFree;
  if (choice === "ajv") {
    if (offered.ajv !== undefined) return offered.ajv;
    throw new TypeError(
      'McpServer: compileSchema "ajv" is not in this build: the package was resolved without the "node" condition (a browser or ' +
        'worker bundle), which leaves out AJV because it generates code at run time. Use "auto" or "eval-free".',
    );
  }
  throw new TypeError(`McpServer: compileSchema must be "auto", "ajv", "eval-free" or a function (schema, label) => validator, got ${JSON.stringify(choice)}`);
}
