/**
 * The client side of the tasks extension (`io.modelcontextprotocol/tasks`):
 * following a task a `tools/call` turned into, to its result: polling
 * `tasks/get` at the server's suggested interval, answering its
 * `inputRequests` with the client's callbacks through `tasks/update`, and
 * cancelling it with `tasks/cancel` when the caller's signal aborts.
 *
 * @module
 */
import { McpError } from "../jsonrpc/errors.js";
import { TASKS_EXTENSION, type DetailedTask, type TaskStatus } from "../tasks-wire.js";
import type { InputCallbacks } from "./callbacks.js";
import { InputRequiredRoundsExceeded, InvalidServerResult } from "./errors.js";
import { fulfilRound } from "./fulfil.js";
import { PendingRequest } from "./pending.js";
import type { CallToolResult, ClientCapabilities, JsonObject } from "./protocol.js";
import type { ClientSession } from "./session.js";
import { sleep } from "../sleep.js";
import type { FollowedTask, FollowKit } from "./task-follow.js";

/** The `tasks` option of `Client.connect`. */
export interface TaskClientOptions {
  /** The polling interval when the server suggests none, in milliseconds. Default 1,000. */
  pollIntervalMs?: number;
  /** Ceiling on any polling interval, whatever the server suggests, in milliseconds. Default 30,000. */
  maxPollIntervalMs?: number;
}

/** The checked `tasks` option. @internal */
export interface TaskSettings {
  readonly pollIntervalMs: number;
  readonly maxPollIntervalMs: number;
}

/**
 * The `tasks` option, checked: `true` or an options object turns the
 * extension on, `undefined`/`false` leaves it off.
 * @throws RangeError for an interval that is not a positive number
 * @internal
 */
export function taskSettingsOf(option: boolean | TaskClientOptions | undefined): TaskSettings | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  if (typeof given !== "object" || given === null) throw new TypeError(`tasks must be true or { pollIntervalMs?, maxPollIntervalMs? }, got ${JSON.stringify(option)}.`);
  const settings = { pollIntervalMs: given.pollIntervalMs ?? 1_000, maxPollIntervalMs: given.maxPollIntervalMs ?? 30_000 };
  for (const [name, value] of Object.entries(settings)) {
    if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) throw new RangeError(`tasks.${name} must be a positive number of milliseconds, got ${String(value)}.`);
  }
  return settings;
}

/** The capabilities with the extension declared. @internal */
export function withTasksExtension(capabilities: ClientCapabilities): ClientCapabilities {
  const extensions = (capabilities as { extensions?: Record<string, unknown> }).extensions ?? {};
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } } as ClientCapabilities;
}

/** True for the `CreateTaskResult` a `tools/call` may answer with. @internal */
export function isCreateTaskResult(result: JsonObject): boolean {
  return result.resultType === "task";
}

/**
 * The task of a call ended `cancelled` (by this client's signal, another
 * client, or the server). The tool may have done part of its work; call it
 * again to retry.
 */
export class TaskCancelled extends Error {
  override readonly name = "TaskCancelled" as const;
  /** The task that was cancelled. */
  readonly taskId: string;
  /** The server's note on why, if it gave one. */
  readonly statusMessage: string | undefined;

  /**
   * @param taskId - the task
   * @param statusMessage - the server's `statusMessage`
   */
  constructor(taskId: string, statusMessage: string | undefined) {
    super(`Task ${taskId} was cancelled${statusMessage === undefined ? "" : `: ${statusMessage}`}. The tool may have done part of its work; call it again to retry.`);
    this.taskId = taskId;
    this.statusMessage = statusMessage;
  }
}

/**
 * What the lazily loaded follow loop borrows from the modules the client
 * already holds: importing them there would split the browser bundle's
 * 2026 chunk (see docs/internals.md).
 */
const FOLLOW_KIT: FollowKit = Object.freeze({ McpError, InvalidServerResult, InputRequiredRoundsExceeded, PendingRequest, TaskCancelled, fulfilRound, sleep });

/** What following a task needs from its client. @internal */
export interface FollowSettings {
  readonly callbacks: InputCallbacks;
  readonly maxRounds: number;
  readonly tasks: TaskSettings;
}

function checkTask(method: string, value: JsonObject, taskId: string): DetailedTask {
  const status = value.status as TaskStatus;
  if (value.taskId !== taskId || !["working", "input_required", "completed", "failed", "cancelled"].includes(status)) {
    throw new InvalidServerResult(method, `expected the state of task ${taskId}, got a task ${JSON.stringify(value.taskId)} with status ${JSON.stringify(value.status)}.`, value);
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
  /** The server-minted id, to store and reattach with `client.task(taskId)`. */
  readonly taskId: string;
  /** The state the server last reported. */
  last: DetailedTask | undefined;
  private readonly session: ClientSession;
  private readonly settings: FollowSettings;

  /** @internal Created by the client. */
  constructor(session: ClientSession, settings: FollowSettings, taskId: string, last?: DetailedTask) {
    this.session = session;
    this.settings = settings;
    this.taskId = taskId;
    this.last = last;
  }

  /** Reads the task's current state (`tasks/get`). @throws McpError `-32602` for an unknown or expired task. */
  async get(options?: { signal?: AbortSignal }): Promise<DetailedTask> {
    const value = await this.session.request("tasks/get", { taskId: this.taskId }, options);
    this.last = checkTask("tasks/get", value, this.taskId);
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
    // The loop is its own lazy module: a client that never meets a task never loads it.
    const { followTask } = await import("./task-follow.js");
    return followTask(this as unknown as FollowedTask, this.settings, signal, FOLLOW_KIT);
  }

  /** `{ taskId }`, so a stored handle reattaches with `client.task(json.taskId)`. */
  toJSON(): { taskId: string } {
    return { taskId: this.taskId };
  }
}
