/**
 * Following a task to its result: poll `tasks/get` at the server's
 * suggested interval, answer its `inputRequests` with the client's
 * callbacks through `tasks/update`, stop at a terminal status. Loaded on the
 * first task a client follows; it imports values from nowhere and is handed
 * what it needs ({@link FollowKit}), so it stays out of the 2026 chunk.
 *
 * @module
 * @internal
 */
import type { JsonRpcErrorObject, McpError } from "../jsonrpc/errors.js";
import type { DetailedTask } from "../tasks-wire.js";
import type { InputRequiredRoundsExceeded, InvalidServerResult } from "./errors.js";
import type { fulfilRound } from "./fulfil.js";
import type { CallDescriptor, PendingRequest } from "./pending.js";
import type { CallToolResult, InputRequest, InputRequiredResult } from "./protocol.js";
import type { FollowSettings, TaskCancelled } from "./tasks.js";
import type { sleep } from "../sleep.js";

/** What the loop borrows from the client's modules. @internal */
export interface FollowKit {
  readonly McpError: typeof McpError;
  readonly InvalidServerResult: typeof InvalidServerResult;
  readonly InputRequiredRoundsExceeded: typeof InputRequiredRoundsExceeded;
  readonly PendingRequest: typeof PendingRequest;
  readonly TaskCancelled: typeof TaskCancelled;
  readonly fulfilRound: typeof fulfilRound;
  readonly sleep: typeof sleep;
}

/** The handle's side of the loop: its id, its last state, and its requests. @internal */
export interface FollowedTask {
  readonly taskId: string;
  readonly last: DetailedTask | undefined;
  get(options?: { signal?: AbortSignal }): Promise<DetailedTask>;
  update(inputResponses: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<void>;
}

/**
 * Runs the task to a terminal status and returns its result.
 * @throws TaskCancelled, McpError (the task's error), InvalidServerResult, InputRequiredRoundsExceeded, or the signal's reason
 * @internal
 */
export async function followTask(task: FollowedTask, settings: FollowSettings, signal: AbortSignal | undefined, kit: FollowKit): Promise<CallToolResult> {
  const { tasks, callbacks, maxRounds } = settings;
  let rounds = 0;
  let answered = false;
  for (;;) {
    const suggested = task.last?.pollIntervalMs;
    const interval = Math.min(typeof suggested === "number" && suggested > 0 ? suggested : tasks.pollIntervalMs, tasks.maxPollIntervalMs);
    // Right after answering (or reattaching, with no state known yet), look at once: the next round's questions are usually ready.
    if (!answered && task.last !== undefined) await kit.sleep(interval, signal);
    answered = false;
    const state = await task.get({ signal });
    switch (state.status) {
      case "working":
        continue;
      case "input_required": {
        const requests = (state.inputRequests ?? {}) as Record<string, InputRequest>;
        if (++rounds > maxRounds) throw roundsExceeded(task.taskId, rounds - 1, requests, kit);
        const responses = await kit.fulfilRound(requests, callbacks, signal);
        await task.update(responses, { signal });
        answered = true;
        continue;
      }
      case "completed": {
        const result = state.result;
        if (typeof result !== "object" || result === null) throw new kit.InvalidServerResult("tasks/get", `task ${task.taskId} completed without a result.`, state);
        if (result.resultType === undefined) result.resultType = "complete";
        return result as unknown as CallToolResult;
      }
      case "failed": {
        const error = state.error as JsonRpcErrorObject | undefined;
        if (error === undefined || typeof error.code !== "number") throw new kit.InvalidServerResult("tasks/get", `task ${task.taskId} failed without a JSON-RPC error.`, state);
        throw kit.McpError.fromObject(error);
      }
      case "cancelled":
        throw new kit.TaskCancelled(task.taskId, state.statusMessage);
    }
  }
}

function roundsExceeded(taskId: string, rounds: number, requests: Record<string, InputRequest>, kit: FollowKit): InputRequiredRoundsExceeded {
  const last = { resultType: "input_required", inputRequests: requests } as InputRequiredResult;
  const call: CallDescriptor = { method: "tools/call", name: `task ${taskId}` };
  return new kit.InputRequiredRoundsExceeded(rounds, last, kit.PendingRequest.from(call, last, rounds + 1));
}
