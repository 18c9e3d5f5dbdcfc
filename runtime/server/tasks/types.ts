/**
 * What a tool declares about the tasks extension; the wire shapes live in
 * the shared `tasks-wire` module and are re-exported here.
 *
 * @module
 */
export {
  isTerminalStatus,
  TASKS_EXTENSION,
  type CreateTaskResult,
  type DetailedTask,
  type Task,
  type TaskStatus,
  type TaskStatusNotification,
} from "../../protocol/tasks-wire.js";

/**
 * How a tool takes part in the tasks extension (the `task` option of
 * `McpServer.tool`). Omitted, the tool never runs as a task.
 *
 * - `"optional"`: a call from a client that declared the extension runs as a
 *   task; any other call runs as usual.
 * - `"required"`: the call always runs as a task; a client that did not
 *   declare the extension gets `-32021` naming it.
 *
 * The object form adds `start`: `"call"` (the default) runs the whole call as
 * a task, its input rounds becoming `input_required` task states;
 * `"escalate"` runs the call as usual, over MRTR, until the handler returns
 * {@link runAsTask}, and only then creates the task.
 */
export type TaskSupport =
  | "optional"
  | "required"
  | {
      /** As the string forms: whether a call may or must run as a task. */
      support: "optional" | "required";
      /** When the task is created: at the call (default) or when the handler escalates with `runAsTask`. */
      start?: "call" | "escalate";
    };

/** A {@link TaskSupport}, normalised. @internal */
export interface TaskDeclaration {
  readonly support: "optional" | "required";
  readonly start: "call" | "escalate";
}

/**
 * Checks and normalises a tool's `task` option.
 * @throws TypeError for anything but the documented forms
 * @internal
 */
export function taskDeclarationOf(owner: string, value: unknown): TaskDeclaration | undefined {
  if (value === undefined) return undefined;
  if (value === "optional" || value === "required") return Object.freeze({ support: value, start: "call" });
  if (typeof value === "object" && value !== null) {
    const { support, start = "call" } = value as { support?: unknown; start?: unknown };
    if ((support === "optional" || support === "required") && (start === "call" || start === "escalate")) {
      return Object.freeze({ support, start });
    }
  }
  throw new TypeError(
    `${owner}: task must be "optional", "required" or { support: "optional" | "required", start?: "call" | "escalate" }, got ${JSON.stringify(value)}`,
  );
}
