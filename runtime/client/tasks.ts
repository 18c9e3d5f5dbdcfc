/**
 * The client side of the tasks extension (`io.modelcontextprotocol/tasks`):
 * following a task a `tools/call` turned into, to its result: polling
 * `tasks/get` at the server's suggested interval, answering its
 * `inputRequests` with the client's callbacks through `tasks/update`, and
 * cancelling it with `tasks/cancel` when the caller's signal aborts.
 *
 * @module
 */
import { McpError } from "../protocol/jsonrpc/errors.js";
import { TASKS_EXTENSION, type DetailedTask } from "../protocol/tasks-wire.js";
import { InvalidServerResult } from "./errors.js";
import { fulfilRound } from "./fulfil.js";
import { PendingRequest } from "./pending.js";
import { InputRequiredRoundsExceeded } from "./rounds-exceeded.js";
import type { ClientCapabilities, JsonObject } from "./protocol.js";
import type { ClientSession } from "./session.js";
import { sleep } from "../protocol/sleep.js";
import type { TaskHandle, TaskKit } from "./task-handle.js";
import { TaskCancelled, type FollowSettings, type TaskSettings } from "./task-types.js";

export { TaskCancelled, type FollowSettings, type TaskSettings } from "./task-types.js";

/** The `tasks` option of `Client.connect`. */
export interface TaskClientOptions {
  /** The polling interval when the server suggests none, in milliseconds. Default 1,000. */
  pollIntervalMs?: number;
  /** Ceiling on any polling interval, whatever the server suggests, in milliseconds. Default 30,000. */
  maxPollIntervalMs?: number;
}

/** How a task the server starts unasked is followed: the default polling bounds. @internal */
export const DEFAULT_TASK_SETTINGS: TaskSettings = Object.freeze({ pollIntervalMs: 1_000, maxPollIntervalMs: 30_000 });

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
 * What the lazily loaded handle borrows from the modules the client already
 * holds: importing them there would split the browser bundle's 2026 chunk
 * (see docs/internals.md).
 */
const TASK_KIT: TaskKit = Object.freeze({ InputRequiredRoundsExceeded, InvalidServerResult, McpError, PendingRequest, TaskCancelled, fulfilRound, sleep });

/**
 * A {@link TaskHandle} on `taskId`, its module loaded on the first task a
 * client meets.
 * @internal
 */
export async function openTaskHandle(session: ClientSession, settings: FollowSettings, taskId: string, last?: DetailedTask): Promise<TaskHandle> {
  const { TaskHandle } = await import("./task-handle.js");
  return new TaskHandle(session, settings, taskId, last, TASK_KIT);
}
