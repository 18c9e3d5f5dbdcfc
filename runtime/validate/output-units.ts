/**
 * The issues of a failed `@cfworker/json-schema` check, as `{ path, message }`:
 * its output lists an error for each keyword whose subschema failed and then
 * the more precise error inside it; only the latter is kept. Shared by the
 * server's eval-free compiler and the client's tool-output check.
 *
 * @internal
 * @module
 */
import type { ValidationIssue } from "./issues.js";

/** One entry of `@cfworker/json-schema`'s output (its `OutputUnit`). @internal */
export interface OutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

/** The leaf issues of `errors`, each a JSON Pointer into the value checked and what is wrong there. @internal */
export function leafIssues(errors: readonly OutputUnit[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [index, error] of errors.entries()) {
    const next = errors[index + 1];
    const path = error.instanceLocation === "#" ? "" : error.instanceLocation.replace(/^#/, "");
    if (error.keyword === "false") {
      issues.push({ path, message: "is not allowed" });
      continue;
    }
    if (next !== undefined && (next.keywordLocation.startsWith(`${error.keywordLocation}/`) || next.keyword === "false")) continue;
    if (error.keyword === "required") {
      const missing = /"((?:[^"\\]|\\.)*)"\.?$/.exec(error.error)?.[1];
      issues.push({ path: missing === undefined ? path : `${path}/${missing}`, message: "is required" });
      continue;
    }
    issues.push({ path, message: error.error });
  }
  return issues;
}
