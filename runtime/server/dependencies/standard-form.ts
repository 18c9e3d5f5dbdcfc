/**
 * Elicitation forms given as a Standard Schema (zod 4, valibot, arktype, …):
 * the form the client is sent is the library's own JSON Schema of the
 * schema's input, checked to be a flat object of primitive fields, and an
 * accepted answer is then validated by the library itself, so its
 * refinements, transforms and defaults apply before the handler.
 *
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { jsonSchemaOfStandard, standardValidatorOf, type StandardSchemaConverter, type StandardValidator } from "../schema/standard.js";
import { assertElicitSchema, type ElicitSchema } from "./elicitation-schema.js";

/** A Standard Schema form, converted: what is sent as `requestedSchema`, and the library's check of an answer. */
export interface StandardForm {
  /** The library's JSON Schema of the form, accepted by the form check. */
  readonly requested: ElicitSchema;
  /** The library's `~standard.validate`, read as JSON Pointer issues. */
  readonly parse: StandardValidator;
}

/**
 * Forms already converted, per schema object. Resolvers call `elicit` every
 * round, usually with the same constant schema: converting once keeps the
 * rounds cheap, and the one converted object keeps the question's digest
 * (cached per form object) the same from round to round.
 */
const converted = new WeakMap<object, StandardForm>();

/**
 * The form a Standard Schema amounts to, converted on its first use. The
 * converter of that first use is the one that counts: a schema object
 * converts to one form.
 *
 * @param schema - the form's Standard Schema (its input is what the user fills in).
 * @param convert - `elicit`'s `toJsonSchema`, for a library without `~standard.jsonSchema`.
 * @throws TypeError when the schema cannot be converted, or converts to something that is not a flat object of primitive fields (naming each bad path).
 * @internal
 */
export function standardFormOf(schema: StandardSchemaV1, convert: StandardSchemaConverter | undefined): StandardForm {
  const known = converted.get(schema);
  if (known !== undefined) return known;
  const vendor = typeof schema["~standard"].vendor === "string" ? schema["~standard"].vendor : "Standard Schema";
  const requested = jsonSchemaOfStandard(schema, "input", 'elicit(): "schema"', convert, {
    shownIn: "the client could not be sent its form",
    option: "elicit()'s toJsonSchema option",
  });
  assertElicitSchema(requested, `the ${vendor} "schema" converts to JSON Schema that is not`);
  const form = Object.freeze({ requested, parse: standardValidatorOf(schema) });
  converted.set(schema, form);
  return form;
}
