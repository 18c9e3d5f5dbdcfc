/**
 * What a 2025 client gets when a handler needs input: a 2025 client cannot
 * answer an `InputRequiredResult`, so the questions a tool's declared needs
 * ask go out as real requests over the session (each input request as the
 * request of its kind, whatever the kind) and the body re-runs with the
 * answers, round after round, until it completes. The state between rounds
 * never leaves the server, so nothing is sealed.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { assertClientCanAnswer } from "../capabilities.js";
import type { RequestContextImpl } from "../context.js";
import { isDependencyRound } from "../dependencies/run.js";
import { internalError } from "../errors.js";
import { anyRoundRepeated } from "../../protocol/rounds.js";
import { callHandler } from "../request.js";
import { describeTarget as what } from "./describe.js";
import type { PendingCall } from "./host.js";
import { handBuiltRejection, settleByHand } from "./shim.js";

function methodsOf(requests: Record<string, unknown>): string {
  const methods = new Set<string>();
  for (const key in requests) {
    const method = (requests[key] as { method?: unknown } | null)?.method;
    if (typeof method === "string") methods.add(method);
  }
  return [...methods].join(", ") || "input";
}

/**
 * Turns an `input_required` answer into the complete result a 2025 client
 * can take: asks over the session and re-runs the handler while the
 * dependency engine asks; hands a round trip built by hand to the
 * `legacyInputRequired` option (`shim.ts`); answers a tool error (or
 * -32603 outside tools) when there is no session to ask over.
 *
 * @throws McpError -32603 (hand-built round trip, too many rounds, no
 *   answer), -32021 (a question the client declared no capability for), or
 *   the client's own error for a request it refused
 * @internal
 */
export async function settleInputRequired(call: PendingCall): Promise<Record<string, unknown>> {
  const { host, handler, invocation, ctx, scope } = call;
  // A round trip the handler built by hand: the legacyInputRequired option decides (shim.ts).
  if (!isDependencyRound(invocation.raw)) return settleByHand(call);
  let raw = invocation.raw;
  // Each round's questions: running out of rounds on new questions is not the same as asking the same again.
  const asked: Record<string, unknown>[] = [];
  for (let round = 1; raw.resultType === "input_required"; round++) {
    if (!isDependencyRound(raw)) throw handBuiltRejection(host, ctx, invocation.params, scope);
    const requests = (raw.inputRequests ?? {}) as Record<string, { method: string; params?: Record<string, unknown> }>;
    const session = scope.session;
    if (session === undefined) return withoutBackChannel(ctx, invocation.params, requests);
    if (round > host.options.maxRounds) {
      throw internalError(
        `Internal error: ${what(ctx, invocation.params)} still needed input after ${host.options.maxRounds} rounds of questions over the session; ` +
          (anyRoundRepeated(asked)
            ? "some rounds asked the same questions again, so the client's answers were not taken (a tool whose needs never settle, or answers that never fit)"
            : "every round asked new questions (raise legacySessions.maxRounds if the tool really asks this much)"),
      );
    }
    asked.push(requests);
    // The same gate as the 2026 path: never ask what the client did not declare it can answer.
    assertClientCanAnswer(requests, scope.clientCapabilities, ctx.protocolVersion);
    ctx.inputResponses = (await session.askAll(requests, ctx)) as unknown as RequestContextImpl["inputResponses"];
    ctx.requestState = raw.requestState as string | undefined;
    raw = await callHandler(handler, invocation.params, ctx);
  }
  return raw;
}

function withoutBackChannel(ctx: RequestContextImpl, params: Record<string, unknown>, requests: Record<string, unknown>): Record<string, unknown> {
  const message =
    `${what(ctx, params)} needs input from the user (${methodsOf(requests)}), and this 2025 client is served without a session, ` +
    "so the server has no way to ask it. Connect with a 2026-07-28 client, or serve 2025 clients with sessions (the server's legacy option).";
  if (ctx.method === "tools/call") {
    // A tool error, not a protocol error: the model reads why the tool could not run.
    return { content: [{ type: "text", text: message }], isError: true };
  }
  throw new McpError(JsonRpcErrorCode.InternalError, message);
}
