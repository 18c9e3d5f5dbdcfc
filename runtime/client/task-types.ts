/**
 * What the client's task support and its lazily loaded handle both name:
 * the cancellation error and the settings a handle follows a task with.
 *
 * @module
 */
import type { Answerers } from "./callbacks.js";

/** The checked `tasks` option. @internal */
export interface TaskSettings {
  readonly pollIntervalMs: number;
  readonly maxPollIntervalMs: number;
}

/**
 * The task of a call ended `cancelled` (by this client's signal, another
 * client, or the server). The tool may have done part of its work; call it
 * again to retry.
 */
export class TaskCancelled extends Error {
  /** Always `"TaskCancelled"`: test it rather than `instanceof` when two copies of the package may be loaded. */
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
    super(
      `Task ${taskId} was cancelled${statusMessage === undefined ? "" : `: ${statusMessage}`}. The tool may have done part of its work; call it again to retry.`,
    );
    this.taskId = taskId;
    this.statusMessage = statusMessage;
  }
}

/** What following a task needs from its client. @internal */
export interface FollowSettings {
  readonly answerers: Answerers;
  readonly maxRounds: number;
  readonly tasks: TaskSettings;
}
