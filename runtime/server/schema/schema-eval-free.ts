/**
 * The eval-free schema compiler: `@cfworker/json-schema` interprets the
 * schema on every check instead of generating code, so it runs where
 * `new Function` is forbidden (Cloudflare Workers and other edge runtimes,
 * pages under a strict Content-Security-Policy). Its accept/reject answers
 * are AJV's (property-tested on the project's schema corpus); its issue
 * messages are its own.
 *
 * This module takes the validator class as a parameter rather than
 * importing it, so whoever wires it in decides whether it loads at once
 * (the portable build) or on first use (the Node build).
 *
 * @module
 * @internal
 */
import type { Schema, SchemaDraft, Validator, OutputUnit } from "@cfworker/json-schema";
import { describeIssues, dialectOf, notValid, OK, UNCHECKABLE, type SchemaCompiler, type SchemaIssue } from "./schema-check.js";
import { schemaProblem } from "./schema-sanity.js";
import { assertSchemaObject, simpleValidatorOf } from "./simple-schema.js";

/** The validator class of `@cfworker/json-schema`. @internal */
export type ValidatorClass = typeof Validator;

const DRAFTS: Readonly<Record<"2020-12" | "draft-07", SchemaDraft>> = { "2020-12": "2020-12", "draft-07": "7" };

/** An error for a keyword whose subschema failed has a more precise error after it: keep only the latter. */
function leafIssues(errors: readonly OutputUnit[]): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
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

/**
 * Builds the eval-free compiler around `Validator`: the simplest object
 * schemas take the shared fast path (AJV's very answers); any other schema
 * is checked for soundness at registration and then interpreted.
 *
 * @param Validator - `Validator` of `@cfworker/json-schema`.
 * @returns a compiler for `McpServer`'s `compileSchema`.
 * @internal
 */
export function createEvalFreeCompiler(Validator: ValidatorClass): SchemaCompiler {
  return (schema, label) => {
    assertSchemaObject(schema, label);
    const simple = simpleValidatorOf(schema);
    if (simple !== undefined) return simple;
    let validator: Validator;
    try {
      const dialect = dialectOf((schema as { $schema?: unknown }).$schema);
      const problem = schemaProblem(schema, dialect);
      if (problem !== undefined) throw new TypeError(problem);
      // A private copy: a caller mutating its schema object later changes nothing here.
      validator = new Validator(structuredClone(schema) as Schema, DRAFTS[dialect], false);
    } catch (error) {
      throw notValid(label, error);
    }
    return (value) => {
      let result: ReturnType<Validator["validate"]>;
      try {
        result = validator.validate(value);
      } catch {
        return structuredClone(UNCHECKABLE);
      }
      if (result.valid) return OK;
      const issues = leafIssues(result.errors);
      return { ok: false, issues, message: describeIssues(issues) };
    };
  };
}
