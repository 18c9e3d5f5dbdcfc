/**
 * The `legacyInputRequired` option: what a 2025 session gets when a handler
 * returns an `InputRequiredResult` it built by hand (not through declared
 * needs, which `back-channel.ts` asks on its own).
 *
 * Under `"reject"` (the default, the reference SDK's rule) that is `-32603`
 * naming the two ways out. Under `"shim"` the server plays the part a
 * 2026-07-28 client plays: it asks each input request over the session,
 * seals the handler's `requestState` exactly as it would for the wire,
 * and retries the call through the same middlewares a client's MRTR retry
 * goes through, so the boundary verifies the token and the handler reads
 * the same plaintext `ctx.requestState` and `ctx.inputResponses` it would
 * over 2026. The token never leaves the server.
 *
 * @internal
 */
import type { InputRequiredResult } from "../../protocol/types.js";
import { assertClientCanAnswer } from "../capabilities.js";
import type { RequestContextImpl } from "../context.js";
import { internalError } from "../errors.js";
import { invokeHandler } from "../request.js";
import { passInputRequired, settle } from "../middleware.js";
import { ROUTES } from "../routes.js";
import { assertValidResult } from "../validation.js";
import { describeTarget } from "./describe.js";
import type { LegacyHost, PendingCall } from "./host.js";
import type { LegacyScope } from "./types.js";
import { anyRoundRepeated } from "../../protocol/rounds.js";

type InputRequests = Record<string, { method: string; params?: Record<string, unknown> }>;

/**
 * The `-32603` a hand-built round trip gets when the shim cannot run it:
 * the option is off, or (with `stateless`) there is no session to ask over.
 * @internal
 */
export function handBuiltRejection(host: LegacyHost, ctx: RequestContextImpl, params: Record<string, unknown>, scope: LegacyScope): Error {
  // A session knows the version it agreed; a stateless request may not say which 2025 revision it speaks.
  const client = scope.session === undefined ? "2025" : scope.protocolVersion;
  const opening =
    `Internal error: ${describeTarget(ctx, params)} returned an InputRequiredResult built by hand; a ${client} client cannot answer it ` +
    "(it needs a 2026-07-28 client, which retries the call with the answers).";
  if (scope.session !== undefined) {
    return internalError(
      `${opening} Declare the questions with needs (elicit, elicitUrl, sample, listRoots), ` + 'or set legacyInputRequired: "shim" to ask them over the session',
    );
  }
  const shimOn = host.inputRequired === "shim";
  return internalError(
    `${opening} This server answers 2025 clients without a session (legacy: "stateless"), so there is no back channel to ask over` +
      (shimOn ? ' and legacyInputRequired: "shim" cannot run' : "") +
      '. Serve 2025 clients with sessions (legacy: "sessions", the default)' +
      (shimOn ? "" : ' and set legacyInputRequired: "shim"') +
      ", or connect with a 2026-07-28 client",
  );
}

/**
 * Settles a hand-built `InputRequiredResult` for a 2025 session: `-32603`
 * unless the shim is on and the request has a session; otherwise asks and
 * retries round after round until the handler completes.
 *
 * Every middleware request is settled once: each round's when its
 * `InputRequiredResult` was sealed (as its answer would have left), and the
 * last round's by the caller, which finds it in `invocation.request`.
 *
 * @throws McpError -32603 (option off, no session, too many rounds, no
 *   answer in time), -32021 (a request the client declared no capability
 *   for), -32602 (the boundary refused the state), or the client's own
 *   error for a request it refused
 * @internal
 */
export async function settleByHand({ host, handler, invocation, ctx, scope }: PendingCall): Promise<Record<string, unknown>> {
  const session = scope.session;
  if (host.inputRequired !== "shim" || session === undefined) throw handBuiltRejection(host, ctx, invocation.params, scope);
  const route = ROUTES.get(ctx.method)!;
  // The retry carries the call as the client sent it: the arguments the boundary binds the state to.
  const call = { ...(invocation.request?.params ?? invocation.params) };
  delete call.inputResponses;
  delete call.requestState;
  let raw = invocation.raw;
  // Each round's questions: running out of rounds on new questions is not the same as asking the same again.
  const rounds: InputRequests[] = [];
  for (let round = 1; raw.resultType === "input_required"; round++) {
    if (round > host.options.maxRounds) throw roundsExhausted(host, ctx, invocation.params, anyRoundRepeated(rounds));
    const asked = roundOf(host, ctx, raw);
    const requests = (asked.inputRequests ?? {}) as InputRequests;
    rounds.push(requests);
    if (host.logger.enabled("debug")) {
      const keys = Object.keys(requests);
      host.logger.debug(
        `${describeTarget(ctx, invocation.params)}: round ${round} built by hand, asking ${keys.map((key) => `"${key}"`).join(", ") || "nothing (state only)"} over the 2025 session (legacyInputRequired: "shim")`,
        { method: ctx.method, round, inputKeys: keys, decision: "shim" },
      );
    }
    // The same gate as the 2026 path: never ask what the client did not declare it can answer.
    assertClientCanAnswer(requests, scope.clientCapabilities, ctx.protocolVersion);
    const sealed = await passInputRequired(host, asked, invocation.request);
    const answering = invocation.request;
    invocation.request = undefined;
    void settle(host, answering, true, sealed);
    const retry: Record<string, unknown> = { ...call };
    if (Object.keys(requests).length > 0) retry.inputResponses = await session.askAll(requests, ctx);
    if (sealed.requestState !== undefined) retry.requestState = sealed.requestState;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const next = await invokeHandler(host, route, handler, retry, ctx);
    invocation.request = next.request;
    raw = next.raw;
  }
  return raw;
}

/** The -32603 for a call that used up `legacySessions.maxRounds`; raising the bound helps only when every round asked something new. */
function roundsExhausted(host: LegacyHost, ctx: RequestContextImpl, params: Record<string, unknown>, repeated: boolean): Error {
  const max = host.options.maxRounds;
  const opening = `Internal error: ${describeTarget(ctx, params)} still returned an InputRequiredResult after ${max} rounds asked over the session (legacyInputRequired: "shim")`;
  if (repeated) {
    return internalError(
      `${opening}, asking again what an earlier round asked. Check that the handler completes once ctx.inputResponses holds its answers ` +
        "(and carries what it learnt in requestState)",
    );
  }
  return internalError(`${opening}, each round asking something new; if the handler really asks this much, raise legacySessions.maxRounds`);
}

/** The round as a 2026 client would receive it, checked like one (unless `validateResults: false`). */
function roundOf(host: LegacyHost, ctx: RequestContextImpl, raw: Record<string, unknown>): InputRequiredResult {
  const asked = { resultType: "input_required" } as InputRequiredResult;
  const requests = raw.inputRequests;
  if (typeof requests === "object" && requests !== null && Object.keys(requests).length > 0) asked.inputRequests = requests as InputRequiredResult["inputRequests"];
  if (raw.requestState !== undefined) asked.requestState = raw.requestState as string;
  if (asked.inputRequests === undefined && asked.requestState === undefined) {
    throw internalError(`Internal error: the ${ctx.method} handler returned an InputRequiredResult with neither inputRequests nor requestState`);
  }
  if (host.validateResults) assertValidResult(ctx.method, "InputRequiredResult", asked);
  return asked;
}
