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
import type { Schema, SchemaDraft, Validator } from "@cfworker/json-schema";
import { leafIssues } from "../../validate/output-units.js";
import { describeIssues, dialectOf, notValid, OK, UNCHECKABLE, type SchemaCompiler } from "./schema-check.js";
import { schemaProblem } from "./schema-sanity.js";
import { assertSchemaObject, simpleValidatorOf } from "./simple-schema.js";

/** The validator class of `@cfworker/json-schema`. @internal */
export type ValidatorClass = typeof Validator;

const DRAFTS: Readonly<Record<"2020-12" | "draft-07", SchemaDraft>> = { "2020-12": "2020-12", "draft-07": "7" };

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
