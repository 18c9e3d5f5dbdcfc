/**
 * The restricted JSON Schema an elicitation form may use (flat object of
 * primitive fields), its TypeScript reading, and a hand-written checker.
 *
 * Hand-written rather than compiled with AJV at run time because the schema
 * is the tool author's, known only at registration, and compiling would need
 * `new Function`, which edge runtimes forbid. The subset is small enough that
 * a direct check is shorter than the glue around a general validator.
 */
import { checkElicitSchema } from "../../validate/elicitation-form.js";
import type { ElicitSchema } from "../../validate/elicitation-form.js";
import type { FromSchema } from "../schema/types/infer.js";

// The field schemas and the checkers live where the client (which checks its own onElicit answers) may import them.
export type {
  BooleanFieldSchema,
  ElicitFieldSchema,
  ElicitSchema,
  Issue,
  MultiSelectFieldSchema,
  NumberFieldSchema,
  SingleSelectFieldSchema,
  StringFieldSchema,
  TitledSingleSelectFieldSchema,
} from "../../validate/elicitation-form.js";
export { checkElicitContent, checkElicitSchema } from "../../validate/elicitation-form.js";

/**
 * The validated `content` of an accepted form elicitation for schema `S`:
 * required fields present, the others optional, each typed from its schema
 * (read by the one schema reader, {@link FromSchema}).
 */
export type ElicitContent<S extends ElicitSchema> = FromSchema<S>;

/**
 * Form schemas already found valid. Resolvers run every round and usually
 * pass the same constant schema object, so each is checked once.
 */
const checkedSchemas = new WeakSet<object>();

/**
 * Throws unless `schema` is a form `requestedSchema` the protocol admits.
 *
 * @param schema - the candidate form (a JSON Schema, or a library's converted one).
 * @param what - what it is, for the message: `"schema" is not` or `the zod schema converts to JSON Schema that is not`.
 * @throws TypeError naming each bad path.
 * @internal
 */
export function assertElicitSchema(schema: unknown, what: string): asserts schema is ElicitSchema {
  if (typeof schema === "object" && schema !== null && checkedSchemas.has(schema)) return;
  const problems = checkElicitSchema(schema);
  if (problems.length > 0) {
    const list = problems.map((issue) => `${issue.path || "/"}: ${issue.message}`).join("; ");
    throw new TypeError(`elicit(): ${what} a valid elicitation form schema (${list})`);
  }
  checkedSchemas.add(schema as object);
}
