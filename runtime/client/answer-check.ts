/**
 * Checks what a callback answered before the client sends it: the answer to
 * a form (an elicitation's `requestedSchema`) against that form, any other
 * answer against its kind's result type in the generated schema. Loaded on
 * the first answer that needs it, so a client that never accepts a form
 * (or never meets a server that asks) does not carry the checker.
 *
 * Imports nothing the client's main modules import, so a splitting bundler
 * keeps it in a chunk of its own (docs/internals.md).
 *
 * @internal
 */
import { checkElicitContent, type ElicitSchema } from "../validate/elicitation-form.js";
import type { ValidationIssue } from "../validate/issues.js";
import type { InputResponseInvalid } from "./answer-errors.js";
import { isObject } from "../protocol/guards.js";

/**
 * The problems with the answer to a form: an action outside
 * accept/decline/cancel, or (form mode, accepted) content that does not fit
 * `requestedSchema`. A schema outside the form subset is the server's to
 * judge, not ours: its content is not checked.
 */
function checkFormAnswer(params: Record<string, unknown>, answer: Record<string, unknown>): ValidationIssue[] {
  const { action } = answer;
  if (action === "decline" || action === "cancel") return [];
  if (action !== "accept") return [{ path: "/action", message: 'must be "accept", "decline" or "cancel"' }];
  if (params.mode === "url") return [];
  let issues: ValidationIssue[];
  try {
    issues = checkElicitContent(params.requestedSchema as ElicitSchema, answer.content ?? {});
  } catch {
    // A schema outside the form subset (the checker cannot read it) is the server's to judge.
    return [];
  }
  return Array.isArray(issues) ? issues.map((issue) => ({ path: `/content${issue.path}`, message: issue.message })) : [];
}

async function issuesOf(method: string, params: Record<string, unknown>, answer: Record<string, unknown>, revision: string): Promise<ValidationIssue[]> {
  // A form is judged by the form itself, which says more than the result type, and needs none of the generated
  // validators: a client that only fills forms never loads them (the browser bundle's budget, test/bundle/).
  if (isObject(params.requestedSchema)) return checkFormAnswer(params, answer);
  // The generated answer validators, loaded on the first answer that is not a form's.
  const { checkResultType } = await import("../validate/answer-schemas.js");
  return checkResultType(method, answer, revision);
}

/**
 * Checks one callback answer: `undefined` when it may be sent, else the
 * {@link InputResponseInvalid} that names each problem.
 *
 * @param key - the input request's key (`undefined` on a 2025 back channel).
 * @param request - the input request: its method and params.
 * @param option - the callback's option name (`onElicit`), for the message.
 * @param answer - what the callback returned (an object).
 * @param revision - the revision whose result types apply: the one the connection speaks (a handshake-era
 *   version without a schema of its own is judged by 2025-11-25, the newest handshake-era schema).
 * @internal
 */
export async function checkAnswer(
  key: string | undefined,
  request: { method: string; params?: unknown },
  option: string,
  answer: Record<string, unknown>,
  revision: string,
  // The caller's class, handed over: importing it here would split it out of the client's main chunk (docs/internals.md).
  Invalid: typeof InputResponseInvalid,
): Promise<InputResponseInvalid | undefined> {
  const params = (isObject(request.params) ? request.params : {}) as Record<string, unknown>;
  const issues = await issuesOf(request.method, params, answer, revision);
  return issues.length === 0 ? undefined : new Invalid(key, request.method, option, issues);
}
