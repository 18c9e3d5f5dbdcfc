/**
 * The generated validators of the two results a callback may return besides
 * an elicitation answer (`CreateMessageResult`, `ListRootsResult`), for every
 * revision a client may speak (generated/answer-validators.ts, which follows
 * schema/sources.json, so a new revision needs no edit here). Named imports
 * there, so a bundler keeps these validators and not the whole tables.
 *
 * @internal
 */
import { ANSWER_VALIDATORS } from "../../generated/answer-validators.js";
import { toIssues, type ValidationIssue } from "./issues.js";

/** A revision with generated answer validators: every modern revision a client speaks, and 2025-11-25. */
type AnswerRevision = keyof typeof ANSWER_VALIDATORS;

const BY_REVISION: Readonly<Record<string, (typeof ANSWER_VALIDATORS)[AnswerRevision]>> = ANSWER_VALIDATORS;

/**
 * The problems with a sampling or roots answer against its result type in
 * `revision`, the protocol version the connection speaks. A handshake-era
 * version with no schema of its own (2025-06-18) is judged by the newest
 * handshake-era one, as a server judges its requests.
 * @internal
 */
export function checkResultType(method: "sampling/createMessage" | "roots/list", answer: Record<string, unknown>, revision: string): ValidationIssue[] {
  const validator = (Object.hasOwn(BY_REVISION, revision) ? BY_REVISION[revision]! : ANSWER_VALIDATORS["2025-11-25"])[method];
  // The wire may add resultType to any 2026 result; the callback's answer is judged without it.
  const { resultType: _resultType, ...result } = answer;
  return validator(result) ? [] : toIssues(validator.errors);
}
