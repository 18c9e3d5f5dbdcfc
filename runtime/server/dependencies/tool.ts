import type { ServerRequestContext } from "../context.js";
import type { MaybePromise } from "../types.js";
import type { ToolResult } from "../schema/types/tool-types.js";
import type { ToolHandler } from "../registry/tools.js";
import { Needs } from "./declaration.js";
import type { DependencyRound } from "./evaluate.js";
import { runWithDependenciesNow } from "./run.js";
import type { InputRequiredResult } from "./wire.js";
import type { LevelledLogger } from "../../protocol/logging.js";

/**
 * The `needs` option of a tool, prompt or resource template: a declaration
 * built with {@link needs}, or a function that builds it from the `need` it
 * is given. `A` is what the resolvers receive as `args`: a tool's arguments,
 * a prompt's arguments, or a resource template's variables.
 *
 * @example
 * ```ts
 * needs: (need) => need
 *   .add("region", () => elicit({ message: "Which region?", schema: regionForm }))
 *   .add("confirm", (args, { region }) => elicit({ message: `Deploy to ${region.content?.region}?`, schema: yesNo }))
 * ```
 */
export type NeedsOption<A, R extends object> = Needs<A, R> | ((need: Needs<A, {}>) => Needs<A, R>);

/** A tool's `needs` option (see {@link NeedsOption}). */
export type ToolNeeds<A, R extends object> = NeedsOption<A, R>;

/**
 * What declares the dependencies: the kind of registration and its name
 * (tool or prompt name, resource URI template), for the errors that name it.
 * @internal
 */
export interface DependencyOwner {
  readonly kind: "tool" | "prompt" | "resource";
  readonly name: string;
}

function ownerOf(owner: string | DependencyOwner): DependencyOwner {
  return typeof owner === "string" ? { kind: "tool", name: owner } : owner;
}

const METHOD_OF_KIND = { tool: "tools/call", prompt: "prompts/get", resource: "resources/read" } as const;
const methodOf = (kind: DependencyOwner["kind"]): string => METHOD_OF_KIND[kind];

const isLevelledLogger = (value: unknown): value is LevelledLogger =>
  typeof value === "object" && value !== null && typeof (value as LevelledLogger).enabled === "function";

/**
 * The body of a tool that declares dependencies: receives the validated
 * arguments, every declared value resolved and typed, and the request
 * context. It returns the tool's result; it may not return an
 * `InputRequiredResult`, since its dependencies already own the call's
 * `inputResponses`/`requestState` channel.
 *
 * @typeParam Structured - the `structuredContent` the tool's `outputSchema` asks for; `undefined` when there is none
 */
export type DependentToolHandler<A, R extends object, Structured = undefined> = (
  args: A,
  needs: R,
  ctx: ServerRequestContext,
) => MaybePromise<ToolResult<Structured> | DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired>;

/**
 * What tsc names when a handler with `needs` returns an `InputRequiredResult`
 * (`inputRequired(...)`): the two forms do not mix. Declare the question in
 * `needs` (`elicit`, `sample`, `listRoots`, `ask`), or drop `needs` and build
 * the rounds by hand in a plain `(args, ctx)` handler. No value has this
 * type; at run time such a result ends the call with `-32603` naming the tool.
 */
export interface DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired {
  /** Never: a handler with `needs` cannot return `resultType: "input_required"`. */
  readonly resultType: never;
  /** Never: the SDK builds the input requests from the declared `needs`. */
  readonly inputRequests?: never;
  /** Never: the SDK keeps the answers in its own sealed state. */
  readonly requestState?: never;
}

/**
 * The handler `McpServer.tool` takes for a tool whose `needs` resolve to
 * `R`: `(args, needs, ctx)` when it declares any (`R` inferred from them),
 * else the plain `(args, ctx)`. One signature for both, so a type error is
 * reported where it is (a wrong member of `structuredContent`, a returned
 * `InputRequiredResult`), not as "no overload matches".
 */
export type ToolBody<A, R, Structured> = [R] extends [never] ? ToolHandler<A, Structured> : DependentToolHandler<A, R & object, Structured>;

/** The per-call facts the dependency runner reads from a server's request context. */
export interface DependencyRequestContext {
  readonly inputResponses?: Readonly<Record<string, unknown>> | undefined;
  readonly requestState?: string | undefined;
  /** The request's protocol version, whose schema checks sampling and roots answers. */
  readonly protocolVersion?: string | undefined;
}

/**
 * Turns the `needs` option into its declaration, once, at registration.
 *
 * @param owner - the tool's name, or the kind and name of the registration; named in errors.
 * @param option - the registration's `needs` option.
 * @throws TypeError when `needs` is neither a declaration nor a function returning one.
 * @internal
 */
function declarationOf<A, R extends object>(owner: string | DependencyOwner, option: NeedsOption<A, R>): Needs<A, R> {
  const { kind, name } = ownerOf(owner);
  const declaration = typeof option === "function" ? option(new Needs<A, {}>()) : option;
  if (!(declaration instanceof Needs)) {
    throw new TypeError(`McpServer.${kind}(${JSON.stringify(name)}): needs must be a needs() declaration or a function (need) => need.add(...) returning one`);
  }
  return declaration;
}

/**
 * Adapts a body with declared dependencies to the ordinary handler form of
 * its registration: the returned function answers an `InputRequiredResult`
 * (plain `requestState`, sealed by the server) until every dependency is
 * resolved, then calls the body with the resolved values.
 *
 * The same engine serves every request kind that may ask: `tools/call`,
 * `prompts/get` and `resources/read`. What the resolvers see as `args` is
 * given by `argsOf` (a tool's or prompt's arguments, a template's
 * variables). Binding the sealed state to the request (method, tool or
 * prompt name and arguments, or resource URI) is the request-state
 * boundary's job, so a token minted for one request never verifies for
 * another. The client-capability check is left to the server, which applies
 * it to every `InputRequiredResult` whatever built it.
 *
 * @param owner - the tool's name, or the kind and name of the registration, for error messages.
 * @param option - the registration's `needs` option.
 * @param handler - the body, `(...input, values, ctx)`.
 * @param argsOf - what the resolvers receive as `args`, from the handler's leading inputs (default: the first).
 * @throws TypeError at registration for a malformed `needs` or a non-function handler.
 * @internal
 */
export function withDependencies<A, R extends object, Ctx extends DependencyRequestContext, T, In extends unknown[] = [A]>(
  owner: string | DependencyOwner,
  option: NeedsOption<A, R>,
  handler: (...params: [...In, R, Ctx]) => T | PromiseLike<T>,
  argsOf: (...input: In) => A = (...input: In) => input[0] as A,
): (...params: [...In, Ctx]) => T | InputRequiredResult | Promise<T | InputRequiredResult> {
  const who = ownerOf(owner);
  const declaration = declarationOf(who, option);
  if (typeof handler !== "function") throw new TypeError(`McpServer.${who.kind}(${JSON.stringify(who.name)}): the handler must be a function`);
  const logFields = Object.freeze({ method: methodOf(who.kind), [who.kind]: who.name });
  return (...params) => {
    const input = params.slice(0, -1) as In;
    const ctx = params[params.length - 1] as Ctx;
    const logger = (ctx as { logger?: unknown }).logger;
    // The server's context carries its logger (RequestContextImpl); a hand-made context may not.
    const levelled = isLevelledLogger(logger);
    const round: DependencyRound = {
      inputResponses: ctx.inputResponses as Record<string, unknown> | undefined,
      requestState: ctx.requestState,
      protocolVersion: ctx.protocolVersion,
      logger: levelled ? logger : undefined,
      logFields: levelled ? logFields : undefined,
    };
    // Answered at once when nothing had to be waited for, like a handler that returns its result.
    return runWithDependenciesNow(
      declaration,
      argsOf(...input),
      round,
      (values) => handler(...([...input, values, ctx] as unknown as [...In, R, Ctx])),
      who.name,
      who.kind,
    );
  };
}
