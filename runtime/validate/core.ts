/**
 * The revision-independent half of validation: run a generated validator,
 * turn its errors into issues. Each revision's tables live in their own
 * module so a program that only meets one generation loads only its
 * validators.
 *
 * @internal
 */
import type { Validator } from "../../generated/2026-07-28/validators.js";
import { summarise, toIssues, type ValidationIssue } from "./issues.js";

/** The outcome of a validation: the value (typed) when valid, otherwise the issues and a readable message. */
export type ValidationResult<T = unknown> =
  | {
      /** The value conforms. */
      ok: true;
      /** The same value, now typed as the definition's type. */
      value: T;
    }
  | {
      /** The value does not conform. */
      ok: false;
      /** Where and why, each at a JSON Pointer into the value. */
      issues: ValidationIssue[];
      /** One readable line, e.g. `Invalid CallToolResult: /content/0/text is required`. */
      message: string;
    };

/** One revision's generated validators and method tables. @internal */
export interface RevisionTables {
  readonly revision: string;
  validators: Record<string, Validator>;
  methodValidators: Record<string, { params: Validator; result: Validator }>;
  methodTable: Record<string, { request: string }>;
  notificationTable: Record<string, { notification: string }>;
}

const own = (table: object, key: string) => Object.hasOwn(table, key);

function run<T>(validator: Validator, subject: string, value: unknown): ValidationResult<T> {
  if (validator(value)) return { ok: true, value: value as T };
  const issues = toIssues(validator.errors);
  return { ok: false, issues, message: summarise(subject, issues) };
}

function unknownMethod(method: string, where: string): ValidationResult<never> {
  const issues = [{ path: where, message: `names no method of this revision (${JSON.stringify(method)})` }];
  return { ok: false, issues, message: summarise("method", issues) };
}

/** True when `tables` has a definition called `name` (own keys only). @internal */
export function hasDefinition(tables: RevisionTables, name: string): boolean {
  return typeof name === "string" && own(tables.validators, name);
}

/** Checks `value` against one definition, which must exist. @internal */
export function checkDefinition(tables: RevisionTables, name: string, value: unknown): ValidationResult {
  return run(tables.validators[name]!, name, value);
}

/** Checks a whole request message against its method's request definition. @internal */
export function checkRequest(tables: RevisionTables, method: string, message: unknown): ValidationResult {
  if (!own(tables.methodTable, method)) return unknownMethod(method, "/method");
  const definition = tables.methodTable[method]!.request;
  return run(tables.validators[definition]!, definition, message);
}

/** Checks a request's params against its method. @internal */
export function checkParams(tables: RevisionTables, method: string, params: unknown): ValidationResult {
  if (!own(tables.methodValidators, method)) return unknownMethod(method, "");
  return run(tables.methodValidators[method]!.params, `${method} params`, params);
}

/** Checks a result against what its method may return. @internal */
export function checkResult(tables: RevisionTables, method: string, result: unknown): ValidationResult {
  if (!own(tables.methodValidators, method)) return unknownMethod(method, "");
  return run(tables.methodValidators[method]!.result, `${method} result`, result);
}

/** Checks a whole notification message against its method's definition. @internal */
export function checkNotification(tables: RevisionTables, method: string, message: unknown): ValidationResult {
  if (!own(tables.notificationTable, method)) return unknownMethod(method, "/method");
  const definition = tables.notificationTable[method]!.notification;
  return run(tables.validators[definition]!, definition, message);
}
