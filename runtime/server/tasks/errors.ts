/**
 * The errors the tasks surface answers with: each says what happened to the
 * task and what the client can do, and none reveals whether a task of
 * another caller exists.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { TASKS_EXTENSION, type TaskStatus } from "./types.js";
import { MetaKey } from "../../protocol/names.js";

/** `-32602` for a task id this server does not know (or that belongs to another caller). @internal */
export function unknownTask(taskId: string): McpError {
  return new McpError(
    JsonRpcErrorCode.InvalidParams,
    `Unknown task ${JSON.stringify(taskId)}: this server holds no task with that id for this caller. ` +
      "Use the taskId of a CreateTaskResult this server sent you; to run the work again, repeat the original request.",
    { reason: "unknown_task", taskId },
  );
}

/** `-32602` for a task whose time to live elapsed, so its result (or its questions) are gone. @internal */
export function expiredTask(taskId: string, expiredAt: number): McpError {
  return new McpError(
    JsonRpcErrorCode.InvalidParams,
    `Task ${JSON.stringify(taskId)} expired at ${new Date(expiredAt).toISOString()} and its result was discarded (its ttlMs elapsed). ` +
      "Repeat the original request to run the work again; poll within ttlMs to keep a result.",
    { reason: "task_expired", taskId, expiredAt: new Date(expiredAt).toISOString() },
  );
}

/** `-32602` for `tasks/update` whose answers nothing can read: a cancelled task, or one whose questions died with their process. @internal */
export function taskNotAwaitingInput(taskId: string, status: TaskStatus): McpError {
  const why =
    status === "cancelled"
      ? "it was cancelled, so nothing will read them"
      : "the process that asked its questions no longer runs it (restarted, or another instance); repeat the original request";
  return new McpError(JsonRpcErrorCode.InvalidParams, `Task ${JSON.stringify(taskId)} took none of these inputResponses: ${why}. Read its state with tasks/get.`, {
    reason: status === "cancelled" ? "task_cancelled" : "task_not_awaiting_input",
    taskId,
    status,
  });
}

/** `-32021` for a client that did not declare the tasks extension. @internal */
export function extensionNotDeclared(what: string): McpError {
  return new McpError(
    JsonRpcErrorCode.MissingRequiredClientCapability,
    `${what} needs the ${TASKS_EXTENSION} extension, which this request did not declare: ` +
      `add "${TASKS_EXTENSION}": {} under _meta["${MetaKey.clientCapabilities}"].extensions`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** `-32603` when the store cannot take another task. @internal */
export function tooManyTasks(limit: number): McpError {
  return new McpError(
    JsonRpcErrorCode.InternalError,
    `Too many tasks: this server already holds its limit of ${limit}, so it started none for this call. ` +
      "Retry once running tasks finish or finished ones expire (the server's operator can raise maxTasks).",
    { reason: "too_many_tasks", limit },
  );
}
