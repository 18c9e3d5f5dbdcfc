/**
 * The type-level twin of the registration check in `../required-names.ts`:
 * a `required` entry of a JSON Schema literal that names none of the
 * `properties` beside it (a typo, a renamed property) fails to compile, at
 * the entry. Types only.
 *
 * The rule, the same at run time: where a schema object has `properties`
 * and admits no other members (no `additionalProperties` other than
 * `false`, no `patternProperties`), each entry of its `required` must name
 * one of them, or one of the properties of the object schema a
 * `allOf`/`anyOf`/`oneOf` branch sits in. Nested schemas (`properties`,
 * `items`, `prefixItems`, combinator branches) are checked the same way; a
 * schema without `properties` is not.
 *
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";

type Names<P> = Extract<keyof P, string>;

/** Whether the object schema admits members beyond `properties`, so `required` may name others. */
type Open<S> = S extends { readonly patternProperties: object }
  ? true
  : S extends { readonly additionalProperties: infer A }
    ? A extends false
      ? false
      : true
    : false;

/** `unknown` when every member of `Fix` is `unknown` (nothing to fix), else `Fix`. */
type OnlyFixes<Fix> = [{ [K in keyof Fix]: unknown extends Fix[K] ? never : K }[keyof Fix]] extends [never] ? unknown : Fix;

/** The fix of `required` at this node: the names it may hold, when one of its entries names no property. */
type RequiredFix<S, Inherited extends string> = S extends { readonly properties: infer P extends object; readonly required: readonly (infer K)[] }
  ? Open<S> extends true
    ? unknown
    : string extends K // a widened list (string[]) names nothing tsc can check
      ? unknown
      : [Exclude<K, Names<P> | Inherited>] extends [never]
        ? unknown
        : { readonly required: readonly (Names<P> | Inherited)[] }
  : unknown;

type PropertiesFix<S> = S extends { readonly properties: infer P extends object }
  ? OnlyFixes<{ [K in keyof P]: SchemaFix<P[K]> }> extends infer F
    ? unknown extends F
      ? unknown
      : { readonly properties: F }
    : never
  : unknown;

type ItemsFix<S> = S extends { readonly items: infer I }
  ? I extends readonly unknown[]
    ? unknown
    : SchemaFix<I> extends infer F
      ? unknown extends F
        ? unknown
        : { readonly items: F }
      : never
  : unknown;

type ListFix<S, Key extends string, Inherited extends string> = S extends { readonly [K in Key]: infer L extends readonly unknown[] }
  ? OnlyFixes<{ [I in keyof L]: SchemaFix<L[I], Inherited> }> extends infer F
    ? unknown extends F
      ? unknown
      : { readonly [K in Key]: F }
    : never
  : unknown;

/** What the property names of `S` lend to its combinator branches. */
type Lent<S> = S extends { readonly properties: infer P extends object } ? Names<P> : never;

/**
 * `unknown` when every `required` list of JSON Schema literal `S` names
 * properties that exist, else the shape that corrects it (an intersection
 * with the schema's own type makes the wrong entry fail to compile). A
 * widened schema (not a literal) is `unknown`.
 */
export type SchemaFix<S, Inherited extends string = never> = S extends object
  ? RequiredFix<S, Inherited> &
      PropertiesFix<S> &
      ItemsFix<S> &
      ListFix<S, "prefixItems", never> &
      ListFix<S, "allOf", Lent<S> | Inherited> &
      ListFix<S, "anyOf", Lent<S> | Inherited> &
      ListFix<S, "oneOf", Lent<S> | Inherited>
  : unknown;

/** The fix of one tool schema: none for a Standard Schema (its library owns it) or an absent one. */
type ToolSchemaFix<S> = S extends StandardSchemaV1 ? unknown : [S] extends [undefined] ? unknown : SchemaFix<S>;

/**
 * What a tool's config must also satisfy: `unknown` when the `required`
 * lists of its JSON Schema literals are sound, else the corrected shape of
 * the schema at fault, so tsc points at the entry that names no property.
 * @internal
 */
export type RequiredNamesCheck<In, Out> = (unknown extends ToolSchemaFix<In> ? unknown : { readonly inputSchema?: ToolSchemaFix<In> }) &
  (unknown extends ToolSchemaFix<Out> ? unknown : { readonly outputSchema?: ToolSchemaFix<Out> });
