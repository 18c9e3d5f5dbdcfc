import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { Needs } from "./declaration.js";
import { evaluateNeedsNow, type DependencyRound, type Evaluation } from "./evaluate.js";
import type { InputRequiredResult } from "./wire.js";
import { isObject, isThenable } from "../../protocol/guards.js";

const KIND_LABEL: Readonly<Record<string, string>> = { tool: "Tool", prompt: "Prompt", resource: "Resource template" };

/**
 * The `InputRequiredResult`s the dependency engine built, as opposed to
 * ones a handler built by hand. A 2025 session can ask a client what the
 * engine asks (it knows how to re-run the body with the answers); it
 * cannot replay a hand-written round trip.
 */
const ENGINE_RESULTS = new WeakSet<object>();

/**
 * True for an `InputRequiredResult` built by declared dependencies
 * ({@link runWithDependencies}), whose questions the server may ask over a
 * 2025 session's back channel instead.
 * @internal
 */
export function isDependencyRound(value: unknown): boolean {
  return typeof value === "object" && value !== null && ENGINE_RESULTS.has(value);
}

/**
 * True when a handler's result is (or looks like) an `InputRequiredResult`.
 * @internal
 */
function looksInputRequired(result: unknown): boolean {
  return isObject(result) && (result.resultType === "input_required" || result.inputRequests !== undefined || result.requestState !== undefined);
}

/**
 * Runs a tool (prompt, resource template) that declares dependencies: evaluates them for this call and
 * either returns the `InputRequiredResult` that asks what is still missing
 * (its `requestState` is plaintext, for the server to seal) or runs `body`
 * with every value resolved and returns its result.
 *
 * @param declaration - the tool's {@link Needs}.
 * @param args - the tool's validated arguments.
 * @param round - `inputResponses`, plaintext `requestState`, client capabilities.
 * @param body - the tool's handler, given the resolved values.
 * @param ownerName - the tool (prompt, resource template) named in the error when `body` breaks the one-form rule.
 * @param ownerKind - what `ownerName` names: `"tool"` (default), `"prompt"` or `"resource"` (a template).
 * @throws McpError `-32021` when a question needs a capability the client did not declare.
 * @throws McpError `-32603` when `body` returns an `InputRequiredResult`: a tool that declares dependencies must let them ask.
 */
export async function runWithDependencies<A, R extends object, T>(
  declaration: Needs<A, R>,
  args: A,
  round: DependencyRound,
  body: (values: R) => T | PromiseLike<T>,
  ownerName = "tool",
  ownerKind: "tool" | "prompt" | "resource" = "tool",
): Promise<T | InputRequiredResult> {
  return runWithDependenciesNow(declaration, args, round, body, ownerName, ownerKind);
}

/**
 * {@link runWithDependencies}, answered at once when neither the evaluation nor `body` had to be waited
 * for: the server's path, so a tool with `needs` answers each round in the turn its request arrived.
 * @throws where runWithDependencies rejects, until the first wait
 * @internal
 */
export function runWithDependenciesNow<A, R extends object, T>(
  declaration: Needs<A, R>,
  args: A,
  round: DependencyRound,
  body: (values: R) => T | PromiseLike<T>,
  ownerName = "tool",
  ownerKind: "tool" | "prompt" | "resource" = "tool",
): T | InputRequiredResult | Promise<T | InputRequiredResult> {
  const evaluated = evaluateNeedsNow(declaration, args, round);
  // Module functions rather than closures: the usual round runs with nothing to wait for and allocates none.
  if (isThenable<Evaluation<R>>(evaluated)) return Promise.resolve(evaluated).then((evaluation) => proceed(evaluation, body, ownerName, ownerKind));
  return proceed(evaluated, body, ownerName, ownerKind);
}

/** One evaluated round: its question as an `InputRequiredResult`, or `body` run with every value resolved. */
function proceed<R, T>(
  evaluation: Evaluation<R>,
  body: (values: R) => T | PromiseLike<T>,
  ownerName: string,
  ownerKind: string,
): T | InputRequiredResult | Promise<T | InputRequiredResult> {
  if (evaluation.status === "input_required") {
    const asked: InputRequiredResult = { resultType: "input_required", inputRequests: evaluation.inputRequests, requestState: evaluation.requestState };
    ENGINE_RESULTS.add(asked);
    return asked;
  }
  const result = body(evaluation.values);
  if (isThenable<T>(result)) return Promise.resolve(result).then((done) => oneForm(done, ownerName, ownerKind));
  return oneForm(result, ownerName, ownerKind);
}

/** `body`'s result, unless it broke the one-form rule by asking for input itself. @throws McpError -32603 then */
function oneForm<T>(result: T, ownerName: string, ownerKind: string): T {
  if (looksInputRequired(result)) {
    throw new McpError(
      JsonRpcErrorCode.InternalError,
      `${KIND_LABEL[ownerKind] ?? "Tool"} "${ownerName}" declares dependencies (needs) and its handler also returned an InputRequiredResult; ` +
        "use one form: declare the question in needs, or drop needs and build the InputRequiredResult by hand",
    );
  }
  return result;
}
