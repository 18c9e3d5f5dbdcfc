/**
 * The schema compiler of the portable build (package.json
 * `imports["#schema-compiler"]` without the `node` condition: browsers,
 * workers): only the eval-free validator, loaded with the server, so a
 * worker bundle carries no AJV and no `new Function`.
 *
 * @module
 * @internal
 */
import { Validator } from "@cfworker/json-schema";
import { pickCompiler, type SchemaCompiler, type SchemaCompilerChoice } from "./schema-check.js";
import { createEvalFreeCompiler } from "./schema-eval-free.js";

const compileEvalFree = createEvalFreeCompiler(Validator);

/**
 * The compiler `McpServer` uses for `choice`: the eval-free one for `"auto"`.
 *
 * @throws TypeError for `"ajv"` (not in this build) or a choice that is none of the accepted ones.
 * @internal
 */
export function resolveSchemaCompiler(choice: SchemaCompilerChoice | undefined): SchemaCompiler {
  return pickCompiler(choice, { auto: compileEvalFree, ajv: undefined, evalFree: compileEvalFree });
}
