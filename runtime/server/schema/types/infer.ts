/**
 * The type-level JSON Schema reader: the TypeScript type of the values a
 * JSON Schema literal admits. Tools' `inputSchema` and `outputSchema`,
 * prompt arguments and elicitation forms are all read with it. Types only:
 * it costs nothing at run time.
 *
 * The schema must be a literal type (written `as const`, or passed straight
 * to a function whose type parameter is `const`); a widened schema
 * (`Record<string, unknown>`, `type: string`) reads as `unknown`, where the
 * callers fall back to `Record<string, unknown>`.
 *
 * Readings that choose usability over the letter of the spec, on purpose:
 * - an object schema with `properties` and no `additionalProperties` is read
 *   closed (only the declared properties), so a misspelt name fails to
 *   compile; `additionalProperties: true` or a schema opens it;
 * - `prefixItems` (or a draft-07 `items` array) reads as a tuple whose
 *   listed elements are present;
 * - `format` does not narrow a string; `default` does not make a property present;
 * - `$ref` is not followed (it reads as `unknown`).
 *
 * @module
 */
import type { Flatten } from "./type-utils.js";

/**
 * A JSON Schema object as a value: any keywords, arrays read-only or not, so
 * an `as const` schema is accepted wherever one is taken.
 */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}

/**
 * The TypeScript type of the values JSON Schema `S` admits.
 *
 * @typeParam S - a JSON Schema literal type (object or boolean schema)
 * @example
 * ```ts
 * import type { FromSchema } from "mcp-roundtrip/server";
 * const point = { type: "object", properties: { x: { type: "number" }, label: { type: ["string", "null"] } }, required: ["x"] } as const;
 * type Point = FromSchema<typeof point>; // { x: number; label?: string | null }
 * ```
 */
export type FromSchema<S> = S extends boolean
  ? S extends true
    ? unknown
    : never
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly allOf: infer All extends readonly unknown[] }
        ? FromSchema<Omit<S, "allOf">> & AllOf<All>
        : S extends { readonly oneOf: readonly (infer B)[] }
          ? Branches<Omit<S, "oneOf">, B>
          : S extends { readonly anyOf: readonly (infer B)[] }
            ? Branches<Omit<S, "anyOf">, B>
            : S extends { readonly type: infer T }
              ? T extends readonly (infer Each)[]
                ? OfType<S, Each>
                : OfType<S, T>
              : S extends { readonly properties: object }
                ? ObjectOf<S>
                : S extends { readonly items: unknown } | { readonly prefixItems: unknown }
                  ? ArrayOf<S>
                  : unknown;

/** One reading per branch, each with the keywords around the `oneOf`/`anyOf` merged in. */
type Branches<Base, B> = B extends unknown ? FromSchema<keyof Base extends never ? B : Base & B> : never;

type AllOf<All extends readonly unknown[]> = All extends readonly [infer First, ...infer Rest] ? FromSchema<First> & AllOf<Rest> : unknown;

/** The reading of `S` for one of its `type`s (distributes over a `type` array such as `["string", "null"]`). */
type OfType<S, T> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? ArrayOf<S>
          : T extends "object"
            ? ObjectOf<S>
            : unknown;

/** The names in `required`, when it is a literal list (a widened `string[]` requires nothing we can name). */
type RequiredOf<S> = S extends { readonly required: readonly (infer K extends string)[] } ? (string extends K ? never : K) : never;

type ObjectOf<S> = S extends { readonly properties: infer P extends object }
  ? Members<{ -readonly [K in keyof P & RequiredOf<S>]: FromSchema<P[K]> } & { -readonly [K in Exclude<keyof P, RequiredOf<S>>]?: FromSchema<P[K]> }, S>
  : Extra<S, never, { [key: string]: unknown }>;

/** The declared members, plus an index signature when extra members are admitted (its type covers the declared ones, as TypeScript requires). */
type Members<Declared, S> = Flatten<Declared & Extra<S, Exclude<Declared[keyof Declared], undefined>, {}>>;

/** What `additionalProperties` / `patternProperties` admit beyond `properties` (typed with `Declared` too); `Otherwise` when neither is given. */
type Extra<S, Declared, Otherwise> = S extends { readonly additionalProperties: infer A }
  ? A extends false
    ? {}
    : { [key: string]: FromSchema<A> | Declared }
  : S extends { readonly patternProperties: infer Patterns }
    ? { [key: string]: FromSchema<Patterns[keyof Patterns]> | Declared }
    : Otherwise;

type ArrayOf<S> = S extends { readonly prefixItems: infer Prefix extends readonly unknown[] }
  ? [...TupleOf<Prefix>, ...RestOf<S extends { readonly items: infer I } ? I : true>]
  : S extends { readonly items: infer Items }
    ? Items extends readonly unknown[]
      ? [...TupleOf<Items>, ...RestOf<S extends { readonly additionalItems: infer I } ? I : true>]
      : FromSchema<Items>[]
    : unknown[];

type TupleOf<T extends readonly unknown[]> = { -readonly [K in keyof T]: FromSchema<T[K]> };

type RestOf<I> = I extends false ? [] : FromSchema<I>[];
