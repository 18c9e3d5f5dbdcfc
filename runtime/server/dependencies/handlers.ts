import type { GetPromptResult, PromptMessage } from "../../protocol/types.js";
import type { ServerRequestContext } from "../context.js";
import type { ResourceContent } from "../registry/resources.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import type { UriTemplateVariables } from "../uri-template.js";
import type { NeedsOption } from "./tool.js";

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
) => MaybePromise<HandlerResult<GetPromptResult> | PromptMessage[]>;

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
) => MaybePromise<ResourceContent>;
