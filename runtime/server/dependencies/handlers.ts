import type { GetPromptResult, PromptMessage } from "../../protocol/types.js";
import type { ServerRequestContext } from "../context.js";
import type { PromptHandler } from "../registry/prompts.js";
import type { ResourceContent, StaticResourceHandler, TemplateResourceHandler } from "../registry/resources.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import type { UriTemplate, UriTemplateVariables } from "../uri-template.js";
import type { TemplateVariables } from "../schema/types/template-variables.js";
import type { DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired, NeedsOption } from "./tool.js";

/**
 * A prompt's `needs` option: its resolvers receive the prompt's arguments
 * (strings, required ones already checked) as `args`. `A` defaults to
 * `Record<string, string>`; a declaration typed for wider arguments (such
 * as a plain `needs()`) is accepted too.
 */
export type PromptNeeds<A extends Record<string, unknown>, R extends object> = NeedsOption<A, R>;

/**
 * A resource template's `needs` option: its resolvers receive the variables
 * matched from the URI as `args`. `V` defaults to {@link UriTemplateVariables};
 * a declaration typed for wider arguments (such as a plain `needs()`) is
 * accepted too.
 */
export type ResourceNeeds<R extends object, V extends Record<string, unknown> = UriTemplateVariables> = NeedsOption<V, R>;

/**
 * The body of a prompt that declares dependencies: receives the arguments,
 * every declared value resolved and typed, and the request context; returns
 * the messages (alone or as a `GetPromptResult`). It may not return an
 * `InputRequiredResult`: its dependencies own the call's round trips.
 */
export type DependentPromptHandler<A extends Record<string, unknown>, R extends object> = (
  args: A,
  needs: R,
  ctx: ServerRequestContext,
) => MaybePromise<HandlerResult<GetPromptResult> | PromptMessage[] | DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired>;

/**
 * The body of a resource template that declares dependencies: receives the
 * URI, its matched variables, every declared value resolved and typed, and
 * the request context; returns the content. It may not return an
 * `InputRequiredResult`: its dependencies own the call's round trips.
 *
 * @typeParam V - the variables matched from the URI (typed from a template string literal by `McpServer.resource`)
 */
export type DependentTemplateResourceHandler<R extends object, V extends Record<string, unknown> = UriTemplateVariables> = (
  uri: string,
  variables: V,
  needs: R,
  ctx: ServerRequestContext,
) => MaybePromise<ResourceContent | DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired>;

/**
 * The handler `McpServer.prompt` takes: `(args, needs, ctx)` when `needs`
 * declares dependencies (`R` inferred from them), else `(args, ctx)`.
 */
export type PromptBody<A extends Record<string, unknown>, R> = [R] extends [never] ? PromptHandler<A> : DependentPromptHandler<A, R & object>;

/**
 * What tsc names when a static resource (a fixed URI) is given `needs`: only
 * a template reads with the round-trip context, so make the URI a template
 * (`"file:///{name}"`) or ask nothing. No value has this type; at run time
 * it is a `TypeError` from `McpServer.resource`.
 */
export interface AStaticResourceTakesNoNeedsUseATemplate {
  /** Never: a static resource has no `needs`. */
  readonly staticResourceNeeds: never;
}

/** A URI template: a {@link UriTemplate}, or a string with `{…}` expressions. */
export type TemplateLike = UriTemplate | `${string}{${string}}${string}`;

/**
 * The variables a resource's URI binds: typed from a template string
 * literal, {@link UriTemplateVariables} for a `UriTemplate`, none for a
 * static URI.
 */
export type VariablesOf<U> = U extends string ? TemplateVariables<U> : UriTemplateVariables;

/**
 * The handler `McpServer.resource` takes for `U`: a static URI's
 * `(uri, ctx)`; a template's `(uri, variables, ctx)`, or
 * `(uri, variables, needs, ctx)` when `needs` declares dependencies.
 */
export type ResourceBody<U, R> = U extends TemplateLike
  ? [R] extends [never]
    ? TemplateResourceHandler<VariablesOf<U>>
    : DependentTemplateResourceHandler<R & object, VariablesOf<U>>
  : StaticResourceHandler;
