import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { NeedEntry, Needs } from "./declaration.js";
import { isQuestion } from "./questions.js";
import { askedDigest, decodeState, emptyState, encodeState, reaskedDigest, recordedAnswer } from "./state.js";
import { questionDigest } from "./digest.js";
import { SILENT_LOGGER, type LevelledLogger, type LogFields } from "../../protocol/logging.js";
import { describeIssues } from "../../validate/issues.js";
import type { ClientCapabilities, InputRequest } from "./wire.js";
import { isObject, isThenable } from "../../protocol/guards.js";
import { runSteps } from "./steps.js";
import { missingClientCapabilities, missingCapabilityError } from "../capabilities.js";

/** What one call brings to dependency evaluation. */
export interface DependencyRound {
  /** `inputResponses` of this call, as the client sent them. */
  inputResponses?: Record<string, unknown> | undefined;
  /** The verified plaintext of the echoed `requestState`, absent on a first call. */
  requestState?: unknown;
  /**
   * The client's declared capabilities. When given, a question the client
   * cannot answer is a `-32021`; when absent the check is left to the server.
   */
  clientCapabilities?: ClientCapabilities | undefined;
  /**
   * The request's protocol version (`ctx.protocolVersion`): that revision's
   * schema checks the answers, and its kind table says which capabilities a
   * question needs (the newest served revision's when absent).
   */
  protocolVersion?: string | undefined;
  /** Where each round's decisions are logged at `debug` (which keys were asked and why, answers accepted or refused). */
  logger?: LevelledLogger | undefined;
  /** Fields every line of this call carries (`method`, `tool` / `prompt` / `resource`). */
  logFields?: LogFields | undefined;
}

/** The outcome of one round: every dependency resolved, or questions to ask. */
export type Evaluation<R> =
  | {
      /** Every dependency has its value: run the handler. */
      status: "ready";
      /** The resolved values, under the names the `needs` declared. */
      values: R;
    }
  | {
      /** Some answer is still missing: return an `InputRequiredResult` with the two fields below. */
      status: "input_required";
      /** The questions of this round, keyed by dependency name. */
      inputRequests: Record<string, InputRequest>;
      /** The sealed answers gathered so far, for the client to echo on its retry. */
      requestState: string;
    };

/** Thrown inside a resolver that reads a dependency still waiting for its answer. */
class Waiting {
  constructor(readonly on: string) {}
}

/**
 * Evaluates a tool's declared dependencies for one call.
 *
 * Resolvers run in declaration order. A resolver that reads a dependency
 * still waiting for its answer is set aside for a later round; every other
 * question is asked now, so independent questions share one round. An answer
 * counts only if it answers the very question asked last round (same input
 * key, same digest of the rendered request, as recorded in the echoed state)
 * and passes validation; accepted answers are kept in the state, so later
 * rounds need not repeat them, and are dropped when the question they answered
 * changes. An answer that does not fit its question is asked for once more,
 * the reason added to the message; a second misfit ends the call, so a
 * client that keeps sending the same wrong answer is told why instead of
 * being asked until its rounds run out.
 *
 * @param declaration - the tool's {@link Needs}.
 * @param args - the tool's (validated) arguments.
 * @param round - this call's `inputResponses`, plaintext `requestState` and client capabilities.
 * @returns `ready` with every value, or `input_required` with the requests and the plaintext state to seal.
 * @throws McpError `-32021` when a question must be asked that the client declared no capability for.
 * @throws McpError `-32602` when the answer to a question asked once more still does not fit; its
 *   `data` is `{ reason: "invalid_input_response", inputKey, issues }`.
 * @throws TypeError when a resolver reads a dependency declared after it.
 * @throws whatever a resolver throws.
 */
export async function evaluateNeeds<A, R extends object>(declaration: Needs<A, R>, args: A, round: DependencyRound = {}): Promise<Evaluation<R>> {
  return evaluateNeedsNow(declaration, args, round);
}

/**
 * {@link evaluateNeeds}, answered at once when no resolver and no answer check returned a promise (the
 * usual `needs`), else a promise: the server's path, where a round then costs its request no turn.
 * @throws where evaluateNeeds rejects, until the first wait
 * @internal
 */
export function evaluateNeedsNow<A, R extends object>(declaration: Needs<A, R>, args: A, round: DependencyRound = {}): Evaluation<R> | Promise<Evaluation<R>> {
  return runSteps(evaluation(declaration, args, round));
}

/** The evaluation, as steps: each `yield` is a resolver's or an answer check's promise, waited for by {@link runSteps}. */
function* evaluation<A, R extends object>(declaration: Needs<A, R>, args: A, round: DependencyRound): Generator<unknown, Evaluation<R>, unknown> {
  const previous = decodeState(round.requestState);
  const incoming = isObject(round.inputResponses) ? round.inputResponses : {};
  const declared = declaredKeys(declaration.entries);
  const values: Record<string, unknown> = {};
  const waiting = new Set<string>();
  const next = emptyState();
  const inputRequests: Record<string, InputRequest> = {};
  const log = round.logger ?? SILENT_LOGGER;
  // The debug lines are built only when they are written: every accepted answer passes here.
  const debugging = log.enabled("debug");
  const fields: LogFields = round.logFields ?? {};
  const subject = debugging ? describeOwner(fields) : "";
  const roundNumber = previous.round + 1;
  /** `"key" (why)` for each question put this round, for the debug line. */
  const asked: string[] = [];

  for (const entry of declaration.entries) {
    const view = new ResolvedView(entry.key, values, waiting, declared);
    let result: unknown;
    try {
      result = entry.resolve(args, new Proxy(Object.create(null) as Record<string, unknown>, view));
      // Awaited only when it is a promise: a resolver that returns its question at once costs no extra turn.
      if (isThenable(result)) result = yield result;
      // A resolver that caught the signal still read something unanswered: its result cannot be trusted.
      if (view.touched) throw new Waiting(entry.key);
    } catch (error) {
      if (!(error instanceof Waiting)) throw error;
      waiting.add(entry.key);
      // Not asked this round; an earlier answer may still fit once its inputs are known.
      const kept = recordedAnswer(previous, entry.key);
      if (kept) next.answers[entry.key] = kept;
      continue;
    }
    if (!isQuestion(result)) {
      values[entry.key] = result;
      continue;
    }
    const key = entry.key;
    const digest = result.digest;
    const recorded = recordedAnswer(previous, key);
    if (recorded !== undefined && recorded.d === digest) {
      const read = result.read(recorded.r, round.protocolVersion);
      const reading = (isThenable(read) ? yield read : read) as Awaited<typeof read>;
      if (reading.ok) {
        values[key] = reading.value;
        next.answers[key] = recorded;
        continue;
      }
    }
    // The answer counts for this very question: asked as is last round, or asked again (with a reason) after a misfit.
    const reasked = reaskedDigest(previous, key) === digest;
    const askedThis = reasked || askedDigest(previous, key) === digest;
    let request = result.request;
    let why: string | undefined;
    if (askedThis && Object.hasOwn(incoming, key)) {
      const read = result.read(incoming[key], round.protocolVersion);
      // Awaited only when the form's library validates asynchronously.
      const reading = (isThenable(read) ? yield read : read) as Awaited<typeof read>;
      if (reading.ok) {
        values[key] = reading.value;
        next.answers[key] = { d: digest, r: reading.record };
        if (debugging)
          log.debug(`${subject}: accepted the answer for "${key}" (asked in round ${previous.round})`, {
            ...fields,
            round: previous.round,
            inputKey: key,
            decision: "accepted",
          });
        continue;
      }
      const violation = describeIssues(reading.issues);
      if (reasked) {
        log.debug(`${subject}: the answer for "${key}" (asked once more in round ${previous.round}) did not fit again (${violation}); ending with -32602`, {
          ...fields,
          round: previous.round,
          inputKey: key,
          decision: "ended",
          reason: "invalid_input_response",
          issues: reading.issues,
        });
        throw new McpError(
          JsonRpcErrorCode.InvalidParams,
          `The answer for input "${key}" did not fit its request, again after it was asked once more: ${violation}`,
          { reason: "invalid_input_response", inputKey: key, issues: reading.issues },
        );
      }
      request = result.reask?.(violation) ?? request;
      next.reasked[key] = digest;
      why = `the answer did not fit (${violation}); asked once more`;
    }
    inputRequests[key] = request;
    next.asked[key] = request === result.request ? digest : questionDigest(request);
    waiting.add(key);
    if (debugging) {
      why ??= recorded !== undefined ? "its question changed since it was answered" : askedThis ? "no answer came" : "not asked yet";
      asked.push(`"${key}" (${why})`);
    }
  }

  if (round.clientCapabilities !== undefined) {
    // The same reading of the generated kind table as the server's own check, in the request's revision.
    const missing = missingClientCapabilities(inputRequests, round.clientCapabilities, round.protocolVersion);
    if (missing !== undefined) throw missingCapabilityError(missing);
  }
  if (waiting.size === 0) {
    if (debugging && previous.round > 0)
      log.debug(`${subject}: every need resolved after ${previous.round} round(s); running the handler`, { ...fields, round: previous.round, decision: "ready" });
    return { status: "ready", values: values as R };
  }
  next.round = roundNumber;
  if (debugging) {
    const held = [...waiting].filter((key) => !Object.hasOwn(inputRequests, key));
    const also = held.length > 0 ? `; waiting on those for ${held.map((key) => `"${key}"`).join(", ")}` : "";
    log.debug(`${subject}: round ${roundNumber}: asking ${asked.join(", ") || "nothing new"}${also}`, {
      ...fields,
      round: roundNumber,
      decision: "asked",
      inputKeys: Object.keys(inputRequests),
      reasked: Object.keys(next.reasked),
    });
  }
  return { status: "input_required", inputRequests, requestState: encodeState(next) };
}

/** `tools/call "deploy"` from the log fields, for the start of each line. */
function describeOwner(fields: LogFields): string {
  const name = fields.tool ?? fields.prompt ?? fields.resource;
  const method = typeof fields.method === "string" ? fields.method : "needs";
  return typeof name === "string" ? `${method} ${JSON.stringify(name)}` : method;
}

/** The keys a declaration declares, made once per declaration (its entries are frozen). */
const DECLARED = new WeakMap<readonly NeedEntry[], ReadonlySet<string>>();

function declaredKeys(entries: readonly NeedEntry[]): ReadonlySet<string> {
  let keys = DECLARED.get(entries);
  if (keys === undefined) DECLARED.set(entries, (keys = new Set(entries.map((entry) => entry.key))));
  return keys;
}

/**
 * The handler of the `resolved` object a resolver sees (one object, its
 * traps on the prototype): earlier values readable, a read of a value still
 * waiting sets the resolver aside for this round (`touched`), a read of a
 * later dependency is an authoring error.
 */
class ResolvedView implements ProxyHandler<Record<string, unknown>> {
  /** The resolver read a value still waiting for its answer. */
  touched = false;
  readonly #self: string;
  readonly #values: Record<string, unknown>;
  readonly #waiting: ReadonlySet<string>;
  readonly #declared: ReadonlySet<string>;

  constructor(self: string, values: Record<string, unknown>, waiting: ReadonlySet<string>, declared: ReadonlySet<string>) {
    this.#self = self;
    this.#values = values;
    this.#waiting = waiting;
    this.#declared = declared;
  }

  get(_target: Record<string, unknown>, key: string | symbol): unknown {
    if (typeof key !== "string") return undefined;
    this.#check(key);
    return this.#values[key];
  }

  has(_target: Record<string, unknown>, key: string | symbol): boolean {
    if (typeof key !== "string") return false;
    this.#check(key);
    return Object.hasOwn(this.#values, key);
  }

  ownKeys(): string[] {
    // Enumerating (spread, Object.keys) depends on everything before this one.
    const first = this.#waiting.values().next();
    if (!first.done) {
      this.touched = true;
      throw new Waiting(first.value);
    }
    return Object.keys(this.#values);
  }

  getOwnPropertyDescriptor(_target: Record<string, unknown>, key: string | symbol): PropertyDescriptor | undefined {
    if (typeof key !== "string" || !Object.hasOwn(this.#values, key)) return undefined;
    return { value: this.#values[key], enumerable: true, configurable: true, writable: false };
  }

  set(): boolean {
    throw new TypeError(`needs: "${this.#self}" tried to change a resolved dependency; resolved values are read-only`);
  }

  #check(key: string): void {
    if (this.#waiting.has(key)) {
      this.touched = true;
      throw new Waiting(key);
    }
    if (this.#declared.has(key) && !Object.hasOwn(this.#values, key)) {
      throw new TypeError(`needs: "${this.#self}" reads "${key}", which is declared after it (or is itself); declare "${key}" before "${this.#self}"`);
    }
  }
}
