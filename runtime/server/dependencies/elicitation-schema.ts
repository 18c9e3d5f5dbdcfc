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

/** The TypeScript value a field schema admits. */
export type ElicitFieldValue<P> = P extends { readonly type: "array"; readonly items: { readonly enum: readonly (infer E extends string)[] } }
  ? E[]
  : P extends { readonly type: "array"; readonly items: { readonly anyOf: readonly { readonly const: infer C extends string }[] } }
    ? C[]
    : P extends { readonly enum: readonly (infer E extends string)[] }
      ? E
      : P extends { readonly oneOf: readonly { readonly const: infer C extends string }[] }
        ? C
        : P extends { readonly type: "string" }
          ? string
          : P extends { readonly type: "number" | "integer" }
            ? number
            : P extends { readonly type: "boolean" }
              ? boolean
              : never;

type RequiredFields<S extends ElicitSchema> = S extends { readonly required: readonly (infer K)[] }
  ? K & keyof S["properties"]
  : never;

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/**
 * The validated `content` of an accepted form elicitation for schema `S`:
 * required fields present, the others optional, each typed from its schema.
 */
export type ElicitContent<S extends ElicitSchema> = Flatten<
  { -readonly [K in RequiredFields<S>]: ElicitFieldValue<S["properties"][K]> } & {
    -readonly [K in Exclude<keyof S["properties"], RequiredFields<S>>]?: ElicitFieldValue<S["properties"][K]>;
  }
>;
