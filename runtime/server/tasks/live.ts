/**
 * What a running task keeps in this process besides its stored record: the
 * handler's own context (detached from the request that created the task,
 * whose stream has closed; cancelling it aborts the handler's signal), and
 * the questions it waits on.
 *
 * @internal
 */
import { sha256 } from "../../state/primitives/sha256.js";
import { principalOf } from "../../state/index.js";
import { encodeBase64url } from "../../state/primitives/base64url.js";
import { RequestContextImpl } from "../context.js";
import type { AnyHandler } from "../request.js";
import type { TaskRecord } from "./store.js";

/** The questions a task waits on: the round's key prefix, the answers so far, the state to run on with. @internal */
interface Waiting {
  /** `r<round>.`: a wire key is the prefix and the handler's key. */
  readonly prefix: string;
  readonly answers: Record<string, unknown>;
  readonly requestState: string | undefined;
}

/** A task running in this process. @internal */
export interface LiveTask {
  record: TaskRecord;
  readonly ctx: RequestContextImpl;
  round: number;
  /** Each round's questions, compared only if the rounds run out: new questions, or the same ones asked again? */
  asked?: Record<string, unknown>[];
  /** What runs each round, with what. */
  handler: AnyHandler;
  params: Record<string, unknown>;
  waiting?: Waiting | undefined;
  /** Set once the task reached a terminal status or was abandoned: whatever the handler does later is dropped. */
  ended?: boolean;
}

const encoder = new TextEncoder();

/**
 * Who a task belongs to: a digest of the transport-verified principal, so a
 * store never holds the identity itself; `undefined` for unauthenticated
 * callers. Every task method compares it before answering.
 * @internal
 */
export function ownerOf(ctx: RequestContextImpl): string | undefined {
  if (ctx.authInfo === undefined) return undefined;
  return encodeBase64url(sha256(encoder.encode(`mcp/task-owner:${principalOf(ctx.authInfo)}`)));
}

/**
 * A context for the task's handler: the request's identity, capabilities
 * and `_meta`, but its own abort signal (aborted by `tasks/cancel`, through
 * `cancel`) and no response stream.
 * @internal
 */
export function liveTaskContext(ctx: RequestContextImpl): RequestContextImpl {
  const principal = ctx.principal;
  const taskCtx = new RequestContextImpl(
    ctx.requestId,
    ctx.method,
    {
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      clientCapabilities: ctx.clientCapabilities,
      clientInfo: ctx.clientInfo,
      raw: ctx.meta as Record<string, unknown>,
      logLevel: ctx.logLevel,
    },
    { ...(ctx.authInfo === undefined ? {} : { authInfo: ctx.authInfo }), ...(ctx.headers === undefined ? {} : { headers: ctx.headers }) },
  );
  taskCtx.resolvePrincipalWith(() => principal);
  taskCtx.logger = ctx.logger;
  return taskCtx;
}
