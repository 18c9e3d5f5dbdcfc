/**
 * The generated validators of the two results a callback may return besides
 * an elicitation answer (`CreateMessageResult`, `ListRootsResult`), in both
 * revisions. Named imports, so a bundler keeps these validators and not the
 * whole table.
 *
 * @internal
 */
import { CreateMessageResult as CreateMessageResult2025, ListRootsResult as ListRootsResult2025 } from "../../generated/2025-11-25/validators.js";
import { CreateMessageResult, ListRootsResult } from "../../generated/2026-07-28/validators.js";
import { toIssues, type ValidationIssue } from "./issues.js";

/** The revision whose result types judge sampling and roots answers. */
export type AnswerRevision = "2026-07-28" | "2025-11-25";

const VALIDATORS = {
  "2026-07-28": { "sampling/createMessage": CreateMessageResult, "roots/list": ListRootsResult },
  "2025-11-25": { "sampling/createMessage": CreateMessageResult2025, "roots/list": ListRootsResult2025 },
} as const;

/**
 * The problems with a sampling or roots answer against its result type.
 * @internal
 */
export function checkResultType(method: "sampling/createMessage" | "roots/list", answer: Record<string, unknown>, revision: AnswerRevision): ValidationIssue[] {
  const validator = VALIDATORS[revision][method];
  // The wire may add resultType to any 2026 result; the callback's answer is judged without it.
  const { resultType: _resultType, ...result } = answer;
  return validator(result) ? [] : toIssues(validator.errors);
}
