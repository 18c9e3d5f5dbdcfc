/**
 * A task on the server, followed to its result: polling `tasks/get` at the
 * server's suggested interval, answering its `inputRequests` with the
 * client's callbacks through `tasks/update`, cancelling it with
 * `tasks/cancel`. Loaded on the first task a client meets; it imports values
 * from nowhere and is handed what it needs ({@link TaskKit}), so it stays out
 * of the browser bundle's 2026 chunk.
 *
 * @module
 */
import type { JsonRpcErrorObject, McpError } from "../protocol/jsonrpc/errors.js";
import type { DetailedTask, TaskStatus } from "../protocol/tasks-wire.js";
import type { InvalidServerResult } from "./errors.js";
import type { InputRequiredRoundsExceeded } from "./rounds-exceeded.js";
import type { fulfilRound } from "./fulfil.js";
import type { CallDescriptor, PendingRequest } from "./pending.js";
import type { CallToolResult, InputRequest, InputRequiredResult, JsonObject } from "./protocol.js";
import type { ClientSession } from "./session.js";
import type { FollowSettings, TaskCancelled } from "./task-types.js";
import type { sleep } from "../protocol/sleep.js";

/** What the handle borrows from the client's modules. @internal */
export interface TaskKit {
  readonly InputRequiredRoundsExceeded: typeof InputRequiredRoundsExceeded;
  readonly InvalidServerResult: typeof InvalidServerResult;
  readonly McpError: typeof McpError;
  readonly PendingRequest: typeof PendingRequest;
  readonly TaskCancelled: typeof TaskCancelled;
  readonly fulfilRound: typeof fulfilRound;
  readonly sleep: typeof sleep;
}

function checkTask(kit: TaskKit, method: string, value: JsonObject, taskId: string): DetailedTask {
  const status = value.status as TaskStatus;
  if (value.taskId !== taskId || !["working", "input_required", "completed", "failed", "cancelled"].includes(status)) {
    throw new kit.InvalidServerResult(
      method,
      `expected the state of task ${taskId}, got a task ${JSON.stringify(value.taskId)} with status ${JSON.stringify(value.status)}.`,
      value,
    );
  }
  return value as unknown as DetailedTask;
}

/**
 * A task on the server: poll it, answer it, cancel it, or wait for its
 * result. Get one from `client.callTool(name, args, { task: "handle" })`, or
 * reattach to a stored id with `client.task(taskId)` (task ids are durable:
 * the spec expects clients to keep them across restarts).
 */
export class TaskHandle {
  /** The server-minted id, to store and reattach with `await client.task(taskId)`. */
  readonly taskId: string;
  /** The state the server last reported. */
  last: DetailedTask | undefined;
  private readonly session: ClientSession;
  private readonly settings: FollowSettings;

  private readonly kit: TaskKit;

  /** @internal Created by the client. */
  constructor(session: ClientSession, settings: FollowSettings, taskId: string, last: DetailedTask | undefined, kit: TaskKit) {
    this.session = session;
    this.settings = settings;
    this.kit = kit;
    this.taskId = taskId;
    this.last = last;
  }

  /** Reads the task's current state (`tasks/get`). @throws McpError `-32602` for an unknown or expired task. */
  async get(options?: { signal?: AbortSignal }): Promise<DetailedTask> {
    const value = await this.session.request("tasks/get", { taskId: this.taskId }, options);
    this.last = checkTask(this.kit, "tasks/get", value, this.taskId);
    return this.last;
  }

  /** Answers some or all of the task's `inputRequests` (`tasks/update`), under the keys it gave. */
  async update(inputResponses: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<void> {
    await this.session.request("tasks/update", { taskId: this.taskId, inputResponses: inputResponses as JsonObject }, options);
  }

  /** Asks the server to cancel the task (`tasks/cancel`); cancellation is cooperative, read the outcome with {@link TaskHandle.get}. */
  async cancel(options?: { signal?: AbortSignal }): Promise<void> {
    await this.session.request("tasks/cancel", { taskId: this.taskId }, options);
  }

  /**
   * Follows the task to its result: polls at the server's suggested
   * interval, answers its input requests with the client's callbacks, and
   * cancels it when `signal` aborts.
   *
   * @throws TaskCancelled when the task ends cancelled
   * @throws McpError carrying the task's JSON-RPC error when it ends failed, or `-32602` when it is unknown or expired
   * @throws InputRequiredRoundsExceeded after `inputRequiredMaxRounds` rounds of questions
   * @throws the signal's reason when `signal` aborts (after sending `tasks/cancel`)
   */
  async result(options?: { signal?: AbortSignal }): Promise<CallToolResult> {
    const signal = options?.signal;
    try {
      return await this.follow(signal);
    } catch (error) {
      if (signal?.aborted === true) {
        // The caller gave up: tell the server, so it stops the work (best effort, never masking the abort).
        await this.cancel().catch(() => {});
      }
      throw error;
    }
  }

  private async follow(signal: AbortSignal | undefined): Promise<CallToolResult> {
    const { tasks, answerers, maxRounds } = this.settings;
    let rounds = 0;
    let answered = false;
    const asked: unknown[] = [];
    for (;;) {
      const suggested = this.last?.pollIntervalMs;
      const interval = Math.min(typeof suggested === "number" && suggested > 0 ? suggested : tasks.pollIntervalMs, tasks.maxPollIntervalMs);
      // Right after answering (or reattaching, with no state known yet), look at once: the next round's questions are usually ready.
      if (!answered && this.last !== undefined) await this.kit.sleep(interval, signal);
      answered = false;
      const task = await this.get({ signal });
      switch (task.status) {
        case "working":
          continue;
        case "input_required": {
          const requests = (task.inputRequests ?? {}) as Record<string, InputRequest>;
          if (++rounds > maxRounds) throw this.roundsExceeded(rounds - 1, requests, asked);
          asked.push(requests);
          const responses = await this.kit.fulfilRound(requests, answerers, signal, this.session.protocolVersion);
          await this.update(responses, { signal });
          answered = true;
          continue;
        }
        case "completed": {
          const result = task.result;
          if (typeof result !== "object" || result === null)
            throw new this.kit.InvalidServerResult("tasks/get", `task ${this.taskId} completed without a result.`, task);
          if (result.resultType === undefined) result.resultType = "complete";
          return result as unknown as CallToolResult;
        }
        case "failed": {
          const error = task.error as JsonRpcErrorObject | undefined;
          if (error === undefined || typeof error.code !== "number")
            throw new this.kit.InvalidServerResult("tasks/get", `task ${this.taskId} failed without a JSON-RPC error.`, task);
          throw this.kit.McpError.fromObject(error);
        }
        case "cancelled":
          throw new this.kit.TaskCancelled(this.taskId, task.statusMessage);
      }
    }
  }

  private roundsExceeded(rounds: number, requests: Record<string, InputRequest>, asked: readonly unknown[]): InputRequiredRoundsExceeded {
    const last = { resultType: "input_required", inputRequests: requests } as InputRequiredResult;
    const call: CallDescriptor = { method: "tools/call", name: `task ${this.taskId}` };
    return new this.kit.InputRequiredRoundsExceeded(rounds, last, this.kit.PendingRequest.from(call, last, rounds + 1), { asked });
  }

  /** `{ taskId }`, so a stored handle reattaches with `client.task(json.taskId)`. */
  toJSON(): {
    /** The task's id; nothing else is needed to reattach. */
    taskId: string;
  } {
    return { taskId: this.taskId };
  }
}
