/**
 * The restricted JSON Schema an elicitation form may use (flat object of
 * primitive fields), its TypeScript reading, and a hand-written checker.
 *
 * Hand-written rather than compiled with AJV at run time because the schema
 * is the tool author's, known only at registration, and compiling would need
 * `new Function`, which edge runtimes forbid. The subset is small enough that
 * a direct check is shorter than the glue around a general validator.
 */
import type { ElicitSchema } from "../../validate/elicitation-form.js";
import type { FromSchema } from "../schemas/infer.js";

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

/** The TypeScript value a field schema admits (read by the one schema reader, {@link FromSchema}). */
export type ElicitFieldValue<P> = FromSchema<P>;

/**
 * The validated `content` of an accepted form elicitation for schema `S`:
 * required fields present, the others optional, each typed from its schema
 * (read by the one schema reader, {@link FromSchema}).
 */
export type ElicitContent<S extends ElicitSchema> = FromSchema<S>;
