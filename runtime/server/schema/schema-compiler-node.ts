/**
 * The schema compilers of the Node build (package.json
 * `imports["#schema-compiler"]` under the `node` condition; elsewhere
 * `schema-compiler-portable.ts`): AJV, which generates code, and the
 * eval-free validator, each loaded on first use. `"auto"` takes AJV unless
 * the runtime forbids generating code (e.g. `node
 * --disallow-code-generation-from-strings`).
 *
 * @module
 * @internal
 */
import type * as CfworkerModule from "@cfworker/json-schema";
import { lazyModule, requireSync } from "../../protocol/require-sync.js";
import { compileJsonSchema } from "./json-schema.js";
import { lateValidator, pickCompiler, type SchemaCompiler, type SchemaCompilerChoice } from "./schema-check.js";
import { createEvalFreeCompiler } from "./schema-eval-free.js";

const cfworker = lazyModule<typeof CfworkerModule>(
  () => requireSync<typeof CfworkerModule>("@cfworker/json-schema"),
  () => import("@cfworker/json-schema"),
);

let evalFree: SchemaCompiler | undefined;
const evalFreeOf = (loaded: typeof CfworkerModule) => (evalFree ??= createEvalFreeCompiler(loaded.Validator));

/** The eval-free compiler, compiling on first use where the validator can only load asynchronously. */
const compileEvalFree: SchemaCompiler = (schema, label) => {
  const loaded = cfworker.now();
  if (loaded !== undefined) return evalFreeOf(loaded)(schema, label);
  cfworker.later().catch(() => {}); // a failure surfaces on the first check
  return lateValidator(
    label,
    "eval-free JSON Schema validator",
    () => cfworker.now(),
    () => cfworker.loading(),
    (late) => evalFreeOf(late)(schema, label),
  );
};

let generatesCode: boolean | undefined;

/** True where `new Function` works (asked once). */
function codeGenerationAllowed(): boolean {
  if (generatesCode === undefined) {
    try {
      generatesCode = new Function("return true")() === true;
    } catch {
      generatesCode = false;
    }
  }
  return generatesCode;
}

const compileAuto: SchemaCompiler = (schema, label) => (codeGenerationAllowed() ? compileJsonSchema : compileEvalFree)(schema, label);

/**
 * The compiler `McpServer` uses for `choice`.
 *
 * @throws TypeError for a choice that is none of the accepted ones.
 * @internal
 */
export function resolveSchemaCompiler(choice: SchemaCompilerChoice | undefined): SchemaCompiler {
  return pickCompiler(choice, { auto: compileAuto, ajv: compileJsonSchema, evalFree: compileEvalFree });
}
