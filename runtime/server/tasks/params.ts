/**
 * Checks the params of `tasks/get`, `tasks/update` and `tasks/cancel`,
 * which the 2026-07-28 schema (and so the generated validators) does not
 * cover; the answers a `tasks/update` carries are checked against the
 * schema of its own protocol version.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { checkDefinition } from "../../validate/core.js";
import { tablesFor } from "../../validate/revisions.js";

/** The checked params of one task method. @internal */
export interface TaskParams {
  readonly taskId: string;
  readonly inputResponses?: Record<string, unknown>;
}

const MAX_TASK_ID = 256;

function invalid(message: string): McpError {
  return new McpError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${message}`);
}

/**
 * @throws McpError -32602 naming the field that is missing or malformed
 * @internal
 */
export function checkTaskParams(method: string, params: unknown): TaskParams {
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw invalid(`${method} needs params { taskId }`);
  const { taskId, inputResponses } = params as Record<string, unknown>;
  if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > MAX_TASK_ID) {
    throw invalid(`/params/taskId must be the non-empty string a CreateTaskResult carried, got ${taskId === undefined ? "nothing" : typeof taskId}`);
  }
  if (method !== "tasks/update") return { taskId };
  if (typeof inputResponses !== "object" || inputResponses === null || Array.isArray(inputResponses)) {
    throw invalid("/params/inputResponses must be an object mapping each inputRequests key to its response");
  }
  return { taskId, inputResponses: inputResponses as Record<string, unknown> };
}

/**
 * Checks one answer to an outstanding input request against the schema's
 * `InputResponse` (answers to keys the task does not wait on are ignored
 * unchecked, as the extension says), in the revision of `version`, the
 * `tasks/update` request's protocol version.
 * @throws McpError -32602 naming the key and the bad field
 * @internal
 */
export function checkInputResponse(key: string, value: unknown, version: string): void {
  const outcome = checkDefinition(tablesFor(version), "InputResponse", value);
  if (!outcome.ok) {
    throw new McpError(JsonRpcErrorCode.InvalidParams, `Invalid params: /params/inputResponses/${key}: ${outcome.message}; nothing was applied`, {
      issues: outcome.issues,
    });
  }
}
