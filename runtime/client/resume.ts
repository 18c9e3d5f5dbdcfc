/**
 * `client.resume`, loaded on its first use: checks that a parked call belongs
 * to the server the client is connected to, makes sure the server still
 * accepts the call's `requestState` before anyone is asked again, then runs
 * the rounds to the end, keeping the answers given so that a refusal after
 * them does not lose them.
 *
 * Imports no value the client's main modules import (what it needs of them
 * comes in {@link ResumeContext}), so a splitting bundler keeps it in a chunk
 * of its own (docs/internals.md).
 *
 * @internal
 * @module
 */
import type { Answerer, Answerers, InputRequestContext } from "./callbacks.js";
import type { CallOptions } from "./options.js";
import type { LoopSettings, runToCompletion } from "./loop.js";
import type { PendingRequest } from "./pending.js";
import type { PendingServer } from "./pending-server.js";
import type { ServerDescription } from "./negotiate.js";
import type { InputRequest, InputRequiredResult, InputResponse, JsonObject } from "./protocol.js";
import type { CheckErrors, KeptAnswer } from "./check-errors.js";
import { serverMismatchMessage, stateRefusedMessage } from "./check-messages.js";
import type { ClientSession } from "./session.js";
import type { ToolOutputState } from "./tool-output.js";

/** What `resume` needs of its client. @internal */
export interface ResumeContext {
  readonly session: ClientSession;
  readonly loop: LoopSettings;
  /** What the server said of itself at `server/discover` or `initialize`. */
  readonly server: ServerDescription;
  /** The client's output-check state: a resumed `tools/call` is checked like `callTool`'s result. */
  readonly outputs: ToolOutputState;
  /** The client's automatic loop. */
  readonly run: typeof runToCompletion;
  /** The error classes, handed over: importing them here would split them out of the client's main chunk (docs/internals.md). */
  readonly errors: CheckErrors;
}

/** Options of `client.resume`. */
export interface ResumeOptions extends CallOptions {
  /**
   * Send the parked round once without answers before asking anyone, so a
   * server that no longer accepts the call's `requestState` (restarted with
   * other keys, state expired) says so before the user answers again; a
   * server that accepts it asks its questions afresh, under a fresh
   * `requestState`. Costs one request. Default `true`; only rounds that ask
   * something are probed.
   */
  checkState?: boolean;
}

/**
 * Continues `pending` on the client of `context`.
 *
 * @throws PendingServerMismatch when the call belongs to another server or a revision the server no longer speaks.
 * @throws PendingStateRefused when the server refuses the call's `requestState` (with the answers given so far).
 * @throws what `callTool` throws for the rounds.
 * @internal
 */
export async function resumeParked(
  context: ResumeContext,
  pending: PendingRequest,
  options: (ResumeOptions & { method?: string; checkOutput?: boolean }) | undefined,
): Promise<JsonObject> {
  const result = await resumeRounds(context, pending, options);
  const { outputs, session } = context;
  if (pending.method !== "tools/call" || pending.custom || !(options?.checkOutput ?? outputs.enabled) || result.isError === true) return result;
  const { checkToolOutput } = await import("./tool-output.js");
  return checkToolOutput(context.errors.ToolOutputInvalid, outputs, session, pending.target, result, options?.signal);
}

async function resumeRounds(context: ResumeContext, pending: PendingRequest, options: (ResumeOptions & { method?: string }) | undefined): Promise<JsonObject> {
  if (options?.method !== undefined && options.method !== pending.method) {
    throw new TypeError(`client.resume: expected a parked ${options.method} call, got ${pending.method} "${pending.target}".`);
  }
  if (pending.server !== undefined) checkSameServer(checkedServer(pending.server), context);
  const signal = options?.signal;
  let meta = options?.meta;
  let onNotification: Parameters<typeof runToCompletion>[6];
  if (options?.onProgress !== undefined || options?.onLog !== undefined) {
    const { wireCall } = await import("./call-notifications.js");
    ({ meta, onNotification } = wireCall(options, options.meta));
  }
  let start: InputRequiredResult | JsonObject = parkedResult(pending);
  const asks = pending.inputRequests !== undefined && Object.keys(pending.inputRequests).length > 0;
  if (asks && pending.requestState !== undefined && options?.checkState !== false) {
    // No answers: the server verifies the state before any handler runs, and a handler that gets none asks again.
    start = await context.session.round(pending.call, undefined, pending.requestState, signal, meta, onNotification).catch((error: unknown) => {
      throw isStateRefusal(error) ? new context.errors.PendingStateRefused(stateRefusedMessage(pending, 0), pending, {}, { cause: error }) : error;
    });
  }
  const answers: Record<string, KeptAnswer> = {};
  const loop: LoopSettings = { ...context.loop, answerers: keeping(context.loop.answerers, answers) };
  try {
    return await context.run(context.session, loop, pending.call, signal, meta, { result: start as InputRequiredResult, round: pending.round }, onNotification);
  } catch (error) {
    throw isStateRefusal(error)
      ? new context.errors.PendingStateRefused(stateRefusedMessage(pending, Object.keys(answers).length), pending, answers, { cause: error })
      : error;
  }
}

function parkedResult(pending: PendingRequest): InputRequiredResult {
  const result: InputRequiredResult = { resultType: "input_required" };
  if (pending.inputRequests !== undefined) result.inputRequests = pending.inputRequests;
  if (pending.requestState !== undefined) result.requestState = pending.requestState;
  return result;
}

/** The fields of a stored {@link PendingServer}, checked. @throws TypeError naming one that is not a string */
function checkedServer(server: PendingServer): PendingServer {
  if (typeof server !== "object" || server === null || typeof server.protocolVersion !== "string") {
    throw new TypeError(`client.resume: the parked call's "server" must be the object PendingRequest#toJSON() wrote, with its "protocolVersion".`);
  }
  for (const field of ["endpoint", "name", "version", "protocolVersion"] as const) {
    if (server[field] !== undefined && typeof server[field] !== "string")
      throw new TypeError(`client.resume: the parked call's "server.${field}" must be a string.`);
  }
  return server;
}

/** Refuses a call parked with another endpoint or server name, or in a revision the server no longer speaks. */
function checkSameServer(parked: PendingServer, context: ResumeContext): void {
  const current = context.session.parkedWith;
  if (parked.endpoint !== undefined && current.endpoint !== undefined && parked.endpoint !== current.endpoint) {
    throw new context.errors.PendingServerMismatch(serverMismatchMessage("endpoint", parked, current), "endpoint", parked, current);
  }
  if (parked.name !== undefined && current.name !== undefined && parked.name !== current.name) {
    throw new context.errors.PendingServerMismatch(serverMismatchMessage("name", parked, current), "name", parked, current);
  }
  if (parked.protocolVersion !== current.protocolVersion && !context.server.supportedVersions.includes(parked.protocolVersion)) {
    throw new context.errors.PendingServerMismatch(serverMismatchMessage("revision", parked, current), "revision", parked, current);
  }
}

/** `-32602` with `data.reason: "invalid_request_state"`: the server cannot read the state it is given. */
function isStateRefusal(error: unknown): boolean {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: { reason?: unknown } };
  return code === -32602 && data?.reason === "invalid_request_state";
}

/** The same answerers, each also writing what it answered, by key, into `answers`. */
function keeping(answerers: Answerers, answers: Record<string, KeptAnswer>): Answerers {
  const kept: Record<string, Answerer> = Object.create(null);
  for (const method in answerers) {
    const answerer = answerers[method];
    if (answerer === undefined) continue;
    kept[method] = {
      option: answerer.option,
      answer: async (params: never, context: InputRequestContext) => {
        const response = await answerer.answer(params, context);
        if (context.key !== undefined) answers[context.key] = { request: { method, params } as InputRequest, response: response as InputResponse };
        return response;
      },
    };
  }
  return kept;
}
