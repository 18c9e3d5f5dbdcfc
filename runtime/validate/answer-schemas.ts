/**
 * The generated validators of the results a client's callbacks answer input
 * requests with, every kind of every revision a client may speak
 * (generated/answer-validators.ts, which follows schema/sources.json and each
 * revision's input kinds, so a new revision or kind needs no edit here).
 * Named imports there, so a bundler keeps these validators and not the whole
 * tables.
 *
 * @internal
 */
import { ANSWER_VALIDATORS } from "../../generated/answer-validators.js";
import { toIssues, type ValidationIssue } from "./issues.js";

/** A result validator as the generated code exports it (AJV standalone). */
type AnswerValidator = ((value: unknown) => boolean) & { errors?: unknown };

/** Revision → kind → validator, newest revision first (the generated order). */
const BY_REVISION: Readonly<Record<string, Readonly<Record<string, AnswerValidator>>>> = ANSWER_VALIDATORS;

/** The validator of `method`'s result in `revision`, else in the newest revision that defines the kind. */
function validatorOf(method: string, revision: string): AnswerValidator | undefined {
  const own = Object.hasOwn(BY_REVISION, revision) ? BY_REVISION[revision]! : undefined;
  if (own !== undefined && Object.hasOwn(own, method)) return own[method];
  for (const other in BY_REVISION) if (Object.hasOwn(BY_REVISION[other]!, method)) return BY_REVISION[other]![method];
  return undefined;
}

/**
 * The problems with a callback's answer to a `method` input request against
 * that kind's result type in `revision`, the protocol version the
 * connection speaks (the 2025 back channel passes 2025-11-25, the newest
 * handshake-era schema, for every handshake-era version). A kind `revision`
 * does not define is judged by the newest revision that does.
 * @internal
 */
export function checkResultType(method: string, answer: Record<string, unknown>, revision: string): ValidationIssue[] {
  const validator = validatorOf(method, revision);
  // Only kinds with a callback reach here, and each is one a spoken revision defines.
  if (validator === undefined) return [];
  // The wire may add resultType to any 2026 result; the callback's answer is judged without it.
  const { resultType: _resultType, ...result } = answer;
  return validator(result) ? [] : toIssues(validator.errors as Parameters<typeof toIssues>[0]);
}
