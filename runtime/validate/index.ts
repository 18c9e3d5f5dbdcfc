/**
 * Validation of MCP messages against the generated JSON Schema validators
 * (AJV standalone code: no `eval` or `new Function`, so it runs on edge
 * runtimes). Problems come back as data, `{ path, message }` issues with a
 * readable summary, never as exceptions.
 *
 * @packageDocumentation
 */
import type { Validator } from "../../generated/2026-07-28/validators.js";
import { DEFAULT_REVISION, REVISIONS, type DefaultRevision, type Revision, type RevisionValidators } from "../../generated/revisions.js";
import { LEGACY_TABLES } from "../../generated/tables-legacy.js";
import { checkDefinition, checkNotification, checkParams, checkRequest, checkResult, hasDefinition, type RevisionTables, type ValidationResult } from "./core.js";
import { tablesOfRevision } from "./revisions.js";

export type { ValidationIssue } from "./issues.js";
export type { ValidationResult } from "./core.js";
export type { DefaultRevision, Revision } from "../../generated/revisions.js";

/** Options shared by the validation functions. */
export interface ValidateOptions {
  /** Which revision's schema to check against; default the package's default revision, `"2026-07-28"`. */
  revision?: Revision;
}

/** A definition name of one revision's schema (`DefinitionNameOf<"2026-07-28">` is `"CallToolRequest" | …`). */
export type DefinitionNameOf<R extends Revision> = keyof RevisionValidators[R] & string;
/** A definition name of the default (2026-07-28) schema (`CallToolRequest`, `InputRequiredResult`, …). */
export type DefinitionName = DefinitionNameOf<DefaultRevision>;
/** A definition name of the 2025-11-25 schema. */
export type DefinitionName2025 = DefinitionNameOf<"2025-11-25">;

type Guarded<V> = V extends Validator<infer T> ? T : unknown;

const LEGACY: Readonly<Record<string, RevisionTables>> = LEGACY_TABLES;

function tablesFor(options: ValidateOptions | undefined): RevisionTables {
  const revision: string = options?.revision ?? DEFAULT_REVISION;
  // Own keys only: "toString" or "__proto__" must be reported as unknown revisions, not looked up on the prototype.
  const tables = tablesOfRevision(revision) ?? (Object.hasOwn(LEGACY, revision) ? LEGACY[revision] : undefined);
  if (!tables) {
    throw new RangeError(`revision must be one of ${REVISIONS.join(", ")}; got ${JSON.stringify(revision)}`);
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
  options?: { revision?: DefaultRevision },
): ValidationResult<Guarded<RevisionValidators[DefaultRevision][N]>>;
/** {@link validate} against another revision's schema (`{ revision: "2025-11-25" }` for handshake-era peers); the value is typed by that revision. */
export function validate<R extends Revision, N extends DefinitionNameOf<R>>(
  name: N,
  value: unknown,
  options: { revision: R },
): ValidationResult<Guarded<RevisionValidators[R][N]>>;
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
