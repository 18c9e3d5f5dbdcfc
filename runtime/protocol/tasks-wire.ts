/**
 * The wire shapes of the tasks extension (`io.modelcontextprotocol/tasks`,
 * SEP-2663), shared by the server and the client. The 2026-07-28 schema does
 * not define them (the extension lives outside the core revision), so they
 * are written here by hand.
 *
 * @module
 */
import type { JsonRpcErrorObject } from "./jsonrpc/errors.js";

/** The extension identifier, as clients and servers list it under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The methods the extension adds (`tasks/result` and `tasks/list` of the v1 draft are gone). */
export const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** True for `tasks/get`, `tasks/update` and `tasks/cancel`, which carry a `taskId` (and route on it, in `Mcp-Name`). */
export function isTaskMethod(method: string): boolean {
  return TASK_METHODS.has(method);
}

/** Where a task is in its life; `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** True for the statuses a task never leaves. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** What every task message carries (the extension's `Task`). */
export interface Task {
  /** The server-minted, unguessable task identifier. */
  taskId: string;
  /** Where the task stands; poll until it is terminal. */
  status: TaskStatus;
  /** A human-readable note on the current status. */
  statusMessage?: string;
  /** ISO 8601 creation time. */
  createdAt: string;
  /** ISO 8601 time of the last status change. */
  lastUpdatedAt: string;
  /** How long from creation the server keeps the task, in integer milliseconds (`null`: no limit). It grows as the task changes. */
  ttlMs: number | null;
  /** How often the client should poll `tasks/get`, in integer milliseconds. */
  pollIntervalMs?: number;
}

/**
 * The task with what its status implies inlined (the extension's
 * `DetailedTask`): `inputRequests` while `input_required`, `result` once
 * `completed`, `error` once `failed`.
 */
export interface DetailedTask extends Task {
  /** What the task waits for while `input_required`; answer with `tasks/update`. */
  inputRequests?: Record<
    string,
    {
      /** The input request's method: one of the input kinds of the request's revision. */
      method: string;
      /** Its params, as in an `InputRequiredResult`. */
      params?: Record<string, unknown>;
    }
  >;
  /** The tool's result, once `completed`. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error the call ended with, once `failed`. */
  error?: JsonRpcErrorObject;
}

/** A `tools/call` answer that is a task handle: `resultType: "task"` and the task's fields, flat. */
export interface CreateTaskResult extends Task {
  /** Tells this apart from a `CallToolResult`: the work goes on, poll `tasks/get` with `taskId`. */
  resultType: "task";
  /** The result's metadata, as on any result. */
  _meta?: Record<string, unknown>;
}

/** The `notifications/tasks/status` message a server emits on each status change. */
export interface TaskStatusNotification {
  /** Always `notifications/tasks/status`. */
  method: "notifications/tasks/status";
  /** The task after the change, with what its new status implies. */
  params: DetailedTask;
}
