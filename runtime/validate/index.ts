/**
 * Validation of MCP messages against the generated JSON Schema validators
 * (AJV standalone code: no `eval` or `new Function`, so it runs on edge
 * runtimes). Problems come back as data, `{ path, message }` issues with a
 * readable summary, never as exceptions.
 *
 * @packageDocumentation
 */
import type * as validators2025 from "../../generated/2025-11-25/validators.js";
import type { Validator } from "../../generated/2026-07-28/validators.js";
import type * as validators2026 from "../../generated/2026-07-28/validators.js";
import { checkDefinition, checkNotification, checkParams, checkRequest, checkResult, hasDefinition, type RevisionTables, type ValidationResult } from "./core.js";
import { TABLES_2025 } from "./tables-2025.js";
import { TABLES_2026 } from "./tables-2026.js";

export type { ValidationIssue } from "./issues.js";
export type { ValidationResult } from "./core.js";

/** A protocol revision this package has generated validators for. */
export type Revision = "2026-07-28" | "2025-11-25";

/** Options shared by the validation functions. */
export interface ValidateOptions {
  /** Which revision's schema to check against; default `"2026-07-28"`. */
  revision?: Revision;
}

/** A definition name of the 2026-07-28 schema (`CallToolRequest`, `InputRequiredResult`, …). */
export type DefinitionName = keyof typeof validators2026.validators;
/** A definition name of the 2025-11-25 schema. */
export type DefinitionName2025 = keyof typeof validators2025.validators;

type Guarded<V> = V extends Validator<infer T> ? T : unknown;

const REVISIONS: Record<Revision, RevisionTables> = { "2026-07-28": TABLES_2026, "2025-11-25": TABLES_2025 };

function tablesFor(options: ValidateOptions | undefined): RevisionTables {
  const revision = options?.revision ?? "2026-07-28";
  // Own keys only: "toString" or "__proto__" must be reported as unknown revisions, not looked up on the prototype.
  const tables = Object.hasOwn(REVISIONS, revision) ? REVISIONS[revision] : undefined;
  if (!tables) {
    throw new RangeError(`revision must be one of ${Object.keys(REVISIONS).join(", ")}; got ${JSON.stringify(revision)}`);
  }
  return tables;
}

/**
 * Checks `value` against one schema definition.
 *
 * @param name - the definition, e.g. `"CallToolRequest"`.
 * @param value - any parsed JSON value.
 * @param options - `revision` picks the schema (default 2026-07-28).
 * @returns `{ ok: true, value }` or `{ ok: false, issues, message }`.
 * @throws TypeError when `name` is not a definition of the chosen revision.
 * @example
 * ```ts
 * const checked = validate("CallToolResult", result);
 * if (!checked.ok) console.error(checked.message); // "Invalid CallToolResult: /content/0/text is required"
 * ```
 */
export function validate<N extends DefinitionName>(
  name: N,
  value: unknown,
  options?: { revision?: "2026-07-28" },
): ValidationResult<Guarded<(typeof validators2026.validators)[N]>>;
/** {@link validate} against the 2025-11-25 schema, for talking to handshake-era peers. */
export function validate<N extends DefinitionName2025>(
  name: N,
  value: unknown,
  options: { revision: "2025-11-25" },
): ValidationResult<Guarded<(typeof validators2025.validators)[N]>>;
/** {@link validate} with a definition name known only at run time; the value comes back untyped. */
export function validate(name: string, value: unknown, options?: ValidateOptions): ValidationResult;
export function validate(name: string, value: unknown, options?: ValidateOptions): ValidationResult {
  const tables = tablesFor(options);
  if (!hasDefinition(tables, name)) {
    throw new TypeError(`validate: ${JSON.stringify(name)} is not a definition of MCP ${tables.revision}`);
  }
  return checkDefinition(tables, name, value);
}

/**
 * Checks a whole request message (`{ jsonrpc, id, method, params }`) against
 * the request definition of `method` (from METHOD_TABLE).
 *
 * @param method - the request method, e.g. `"tools/call"`.
 * @param message - the parsed JSON-RPC request.
 * @returns an issue at `/method` when the revision has no such method.
 */
export function validateRequest(method: string, message: unknown, options?: ValidateOptions): ValidationResult {
  return checkRequest(tablesFor(options), method, message);
}

/**
 * Checks a request's `params` against the params of `method`.
 *
 * @param method - the request method, e.g. `"tools/call"`.
 * @param params - the request's `params` member.
 */
export function validateParams(method: string, params: unknown, options?: ValidateOptions): ValidationResult {
  return checkParams(tablesFor(options), method, params);
}

/**
 * Checks a result against what `method` may return: its complete result, or,
 * for `tools/call`, `prompts/get` and `resources/read` in 2026-07-28, an
 * InputRequiredResult (told apart by `resultType`).
 *
 * @param method - the request method the result answers.
 * @param result - the JSON-RPC response's `result` member.
 * @example
 * ```ts
 * validateResult("tools/call", { resultType: "complete", content: [{ type: "text" }] });
 * // { ok: false, issues: [{ path: "/content/0/text", message: "is required" }], … }
 * ```
 */
export function validateResult(method: string, result: unknown, options?: ValidateOptions): ValidationResult {
  return checkResult(tablesFor(options), method, result);
}

/**
 * Checks a whole notification message (`{ jsonrpc, method, params }`) against
 * the notification definition of `method` (from NOTIFICATION_TABLE).
 *
 * @param method - the notification method, e.g. `"notifications/cancelled"`.
 * @param message - the parsed JSON-RPC notification.
 * @returns an issue at `/method` when the revision has no such notification.
 */
export function validateNotification(method: string, message: unknown, options?: ValidateOptions): ValidationResult {
  return checkNotification(tablesFor(options), method, message);
}
