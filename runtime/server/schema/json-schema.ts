import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { lazyModule, requireSync } from "../../protocol/require-sync.js";
import {
  describeIssues,
  dialectOf,
  lateValidator,
  notValid,
  OK,
  UNCHECKABLE,
  type Dialect,
  type SchemaCheck,
  type SchemaIssue,
  type SchemaValidator,
} from "./schema-check.js";
import { assertSchemaObject, simpleValidatorOf } from "./simple-schema.js";

export type { SchemaValidator } from "./schema-check.js";

type FormatsPlugin = (ajv: Ajv | Ajv2020) => void;

/** The AJV classes and the formats plugin, loaded together on first compile. */
interface AjvModules {
  Ajv: typeof Ajv;
  Ajv2020: typeof Ajv2020;
  addFormats: FormatsPlugin;
}

/** A CommonJS plugin is its own `module.exports`; through `import()` it is the default export. */
const pluginOf = (loaded: FormatsPlugin | { default: FormatsPlugin }): FormatsPlugin => (typeof loaded === "function" ? loaded : loaded.default);

/**
 * AJV, loaded on the first schema that needs it rather than at import (its
 * module graph costs some 10 MiB and ~100 ms): synchronously through `require`
 * where the runtime has one, so schemas still compile (and fail) at
 * registration; through `import()` where it has none.
 */
const ajvModules = lazyModule<AjvModules>(
  () => {
    const ajv = requireSync<{ Ajv: typeof Ajv }>("ajv");
    const ajv2020 = ajv && requireSync<{ Ajv2020: typeof Ajv2020 }>("ajv/dist/2020.js");
    const formats = ajv2020 && requireSync<FormatsPlugin | { default: FormatsPlugin }>("ajv-formats");
    return ajv && ajv2020 && formats ? { Ajv: ajv.Ajv, Ajv2020: ajv2020.Ajv2020, addFormats: pluginOf(formats) } : undefined;
  },
  () =>
    Promise.all([import("ajv"), import("ajv/dist/2020.js"), import("ajv-formats")]).then(([ajv, ajv2020, formats]) => ({
      Ajv: ajv.Ajv,
      Ajv2020: ajv2020.Ajv2020,
      addFormats: pluginOf(formats.default as unknown as FormatsPlugin),
    })),
);

/** The AJV modules if they can be had now; otherwise `undefined`, with the `import()` started. */
function ajvNow(): AjvModules | undefined {
  const loaded = ajvModules.now();
  // Awaited by the first call that needs a compiled schema; a failure surfaces there, not as an unhandled rejection.
  if (loaded === undefined) ajvModules.later().catch(() => {});
  return loaded;
}

let ajv2020: Ajv2020 | undefined;
let ajvDraft7: Ajv | undefined;

// Built lazily: a server that registers no schema never builds a compiler.
function compilerFor(loaded: AjvModules, dialect: Dialect): Ajv | Ajv2020 {
  if (dialect === "2020-12") {
    if (ajv2020 === undefined) {
      ajv2020 = new loaded.Ajv2020({ strict: false, allErrors: true });
      loaded.addFormats(ajv2020);
    }
    return ajv2020;
  }
  if (ajvDraft7 === undefined) {
    ajvDraft7 = new loaded.Ajv({ strict: false, allErrors: true });
    loaded.addFormats(ajvDraft7);
  }
  return ajvDraft7;
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
 * Compiles a tool's (or any registered) JSON Schema once, at registration.
 * Supports 2020-12 (the MCP default) and draft-07 via `$schema`. The
 * simplest schemas (an object of typed members, some required: see
 * `simple-schema.ts`) are checked without AJV, with AJV's very answers; AJV
 * itself loads with the first schema that needs it. On a runtime without a
 * synchronous `require` (no `process.getBuiltinModule`) it can only load
 * asynchronously: the schema is then compiled on first use, after the tool
 * call has awaited the validator's `loading()`, so a schema AJV rejects
 * shows there rather than at registration (pass `compileSchema` to avoid that).
 *
 * @param schema - the schema object
 * @param label - what the schema belongs to, for error messages
 * @throws TypeError when the schema is not an object, names an unsupported dialect, or does not compile
 * @internal
 */
export function compileJsonSchema(schema: unknown, label: string): SchemaValidator {
  assertSchemaObject(schema, label);
  const simple = simpleValidatorOf(schema);
  if (simple !== undefined) return simple;
  let dialect: Dialect;
  try {
    dialect = dialectOf((schema as { $schema?: unknown }).$schema);
  } catch (error) {
    throw notValid(label, error);
  }
  const loaded = ajvNow();
  if (loaded !== undefined) return validatorOf(compileWith(loaded, dialect, schema, label));
  // No synchronous require on this runtime: compile on first use, once the import() has landed.
  return lateValidator(
    label,
    "JSON Schema compiler",
    ajvNow,
    () => ajvModules.loading(),
    (late) => validatorOf(compileWith(late, dialect, schema, label)),
  );
}

function compileWith(loaded: AjvModules, dialect: Dialect, schema: object, label: string): ValidateFunction {
  try {
    return compilerFor(loaded, dialect).compile(schema);
  } catch (error) {
    throw notValid(label, error);
  }
}

function check(validate: ValidateFunction, value: unknown): SchemaCheck {
  let valid: boolean;
  try {
    valid = validate(value) as boolean;
  } catch {
    return uncheckable();
  }
  if (valid) return OK;
  const issues = toIssues(validate.errors);
  return { ok: false, issues, message: describeIssues(issues) };
}

/** A fresh copy of {@link UNCHECKABLE}: callers may keep or change the issues they get. */
const uncheckable = (): SchemaCheck => structuredClone(UNCHECKABLE);

const validatorOf =
  (validate: ValidateFunction): SchemaValidator =>
  (value) =>
    check(validate, value);
