/**
 * `runAsTask`: how a tool handler escalates its own call to a task once it
 * has what it needs (the MRTR → tasks composition of SEP-2663).
 *
 * @module
 */
import type { CallToolResult, InputRequiredResult } from "../../protocol/types.js";
import type { ServerRequestContext } from "../context.js";
import type { HandlerResult, MaybePromise } from "../types.js";

/** The long-running part of a call, run as a task: a tool handler without arguments (it closes over them). */
export type TaskWork = (ctx: ServerRequestContext) => MaybePromise<HandlerResult<CallToolResult> | InputRequiredResult>;

const ESCALATIONS = new WeakMap<object, TaskWork>();

/** Type-level only: tells a {@link runAsTask} marker from a result a handler built. */
declare const ESCALATION: unique symbol;

/**
 * What {@link runAsTask} returns: a result marker a tool handler returns as
 * is. Its own type so a tool with an `outputSchema` (whose successful
 * results must carry `structuredContent`) may return it too.
 */
export type TaskEscalation = HandlerResult<CallToolResult> & { readonly [ESCALATION]: true };

/**
 * What a tool handler returns to continue its call as a task: the client
 * gets a `CreateTaskResult` now and polls for what `work` returns. The tool
 * must be registered with `task: { support, start: "escalate" }`; its
 * earlier rounds (an `InputRequiredResult` asking for what the work needs)
 * travel over MRTR as usual. For a client that did not declare the tasks
 * extension, `work` runs within the call instead (support `"optional"`).
 *
 * `work` is itself a handler: it may return an `InputRequiredResult`, which
 * becomes the task's `input_required` state, and read the answers from
 * `ctx.inputResponses` on its next run.
 *
 * @param work - the part to run as a task
 * @returns the marker the server recognises; return it as is
 * @throws TypeError when `work` is not a function
 * @example
 * ```ts
 * mcp.tool("report", { task: { support: "required", start: "escalate" } }, (_args, ctx) => {
 *   const name = ctx.inputResponses?.name;
 *   if (name === undefined) return inputRequired({ inputRequests: { name: ASK_NAME } });
 *   return runAsTask(async () => ({ content: [{ type: "text", text: await buildReport(name) }] }));
 * });
 * ```
 */
export function runAsTask(work: TaskWork): TaskEscalation {
  if (typeof work !== "function") throw new TypeError("runAsTask: work must be a function (ctx) => result");
  const marker = Object.freeze({ content: [] });
  ESCALATIONS.set(marker, work);
  return marker as unknown as TaskEscalation;
}

/** The work of a {@link runAsTask} marker, or `undefined` for any other value. @internal */
export function escalationOf(value: unknown): TaskWork | undefined {
  return typeof value === "object" && value !== null ? ESCALATIONS.get(value) : undefined;
}
