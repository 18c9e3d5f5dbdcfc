import type { CallToolResult } from "../../../generated/2026-07-28/index.js";
import type { ServerRequestContext } from "../context.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import { Needs } from "./declaration.js";
import type { DependencyRound } from "./evaluate.js";
import { runWithDependencies } from "./run.js";
import type { InputRequiredResult } from "./wire.js";

/**
 * A tool's `needs` option: a declaration built with {@link needs}, or a
 * function that builds it from the `need` it is given.
 *
 * @example
 * ```ts
 * needs: (need) => need
 *   .add("region", () => elicit({ message: "Which region?", schema: regionForm }))
 *   .add("confirm", (args, { region }) => elicit({ message: `Deploy to ${region.content?.region}?`, schema: yesNo }))
 * ```
 */
export type ToolNeeds<A, R extends object> = Needs<A, R> | ((need: Needs<A, {}>) => Needs<A, R>);

/**
 * The body of a tool that declares dependencies: receives the validated
 * arguments, every declared value resolved and typed, and the request
 * context. It returns the tool's result; it may not return an
 * `InputRequiredResult`, since its dependencies already own the call's
 * `inputResponses`/`requestState` channel.
 */
export type DependentToolHandler<A, R extends object> = (
  args: A,
  needs: R,
  ctx: ServerRequestContext,
) => MaybePromise<HandlerResult<CallToolResult>>;

/** The per-call facts the dependency runner reads from a server's request context. */
export interface DependencyRequestContext {
  readonly inputResponses?: Readonly<Record<string, unknown>> | undefined;
  readonly requestState?: string | undefined;
}

/**
 * Turns the `needs` option into its declaration, once, at registration.
 *
 * @param toolName - named in errors.
 * @param option - the tool's `needs` option.
 * @throws TypeError when `needs` is neither a declaration nor a function returning one.
 * @internal
 */
export function declarationOf<A, R extends object>(toolName: string, option: ToolNeeds<A, R>): Needs<A, R> {
  const declaration = typeof option === "function" ? option(new Needs<A, {}>()) : option;
  if (!(declaration instanceof Needs)) {
    throw new TypeError(
      `McpServer.tool(${JSON.stringify(toolName)}): needs must be a needs() declaration or a function (need) => need.add(...) returning one`,
    );
  }
  return declaration;
}

/**
 * Adapts a tool with declared dependencies to the ordinary `(args, ctx)`
 * handler form: the returned handler answers an `InputRequiredResult` (plain
 * `requestState`, sealed by the server) until every dependency is resolved,
 * then calls `handler(args, values, ctx)`.
 *
 * The client-capability check is left to the server, which applies it to
 * every `InputRequiredResult` whatever built it.
 *
 * @param toolName - the tool's name, for error messages.
 * @param option - the tool's `needs` option.
 * @param handler - the tool's body.
 * @throws TypeError at registration for a malformed `needs`.
 * @internal
 */
export function withDependencies<A, R extends object, Ctx extends DependencyRequestContext, T>(
  toolName: string,
  option: ToolNeeds<A, R>,
  handler: (args: A, values: R, ctx: Ctx) => T | PromiseLike<T>,
): (args: A, ctx: Ctx) => Promise<T | InputRequiredResult> {
  const declaration = declarationOf(toolName, option);
  if (typeof handler !== "function") throw new TypeError(`McpServer.tool(${JSON.stringify(toolName)}): the handler must be a function`);
  return (args, ctx) => {
    const round: DependencyRound = {
      inputResponses: ctx.inputResponses as Record<string, unknown> | undefined,
      requestState: ctx.requestState,
    };
    return runWithDependencies(declaration, args, round, (values) => handler(args, values, ctx), toolName);
  };
}
