/**
 * The variables an RFC 6570 URI template literal binds, read at type level
 * the way `UriTemplate.match` fills them: a simple or reserved variable is a
 * string, an exploded one (`*`) a list; a named one (`{?q}`, `{;x}`, `{&y}`)
 * may be absent and, unexploded, may hold a comma list; in `{a,b}` only the
 * first is sure to be there. Types only.
 *
 * @module
 */
import type { UriTemplateVariables } from "../../uri-template.js";
import type { Flatten } from "./type-utils.js";

type Expressions<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}` ? Expression | Expressions<Rest> : never;

type OperatorOf<E extends string> = E extends `${infer First}${string}` ? (First extends "+" | "#" | "." | "/" | ";" | "?" | "&" ? First : "") : "";

type BodyOf<E extends string> = E extends `${OperatorOf<E>}${infer Body}` ? Body : E;

type Split<Body extends string> = Body extends `${infer Head},${infer Tail}` ? [Head, ...Split<Tail>] : [Body];

type NameOf<Spec extends string> = Spec extends `${infer Name}*` ? Name : Spec extends `${infer Name}:${string}` ? Name : Spec;

type Named<E extends string> = OperatorOf<E> extends ";" | "?" | "&" ? true : false;

type ValueOf<E extends string, Spec extends string> = Spec extends `${string}*` ? string[] : Named<E> extends true ? string | string[] : string;

type Sure<E extends string> = Named<E> extends true ? never : Split<BodyOf<E>>[0];

type Bindings<E extends string> = Flatten<
  { [Spec in Sure<E> as NameOf<Spec>]: ValueOf<E, Spec> } & { [Spec in Exclude<Split<BodyOf<E>>[number], Sure<E>> as NameOf<Spec>]?: ValueOf<E, Spec> }
>;

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/**
 * The variables `UriTemplate.match` gives for template `T`:
 * `TemplateVariables<"report://{quarter}">` is `{ quarter: string }`. A
 * template that is not a literal type gives {@link UriTemplateVariables}.
 *
 * @example
 * ```ts
 * import type { TemplateVariables } from "mcp-roundtrip/server";
 * type Vars = TemplateVariables<"file:///{+path}{?rev}">; // { path: string; rev?: string | string[] }
 * ```
 */
export type TemplateVariables<T extends string> = string extends T
  ? UriTemplateVariables
  : [Expressions<T>] extends [never]
    ? UriTemplateVariables
    : Flatten<UnionToIntersection<Expressions<T> extends infer E extends string ? (E extends unknown ? Bindings<E> : never) : never>>;
