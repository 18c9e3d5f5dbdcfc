/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the
 * server: the `task` option of a tool, `runAsTask`, the pluggable store.
 *
 * @module
 */
export { runAsTask, type TaskEscalation, type TaskWork } from "./escalate.js";
export { MemoryTaskStore, TaskStoreFull, type MemoryTaskStoreOptions, type TaskLookup, type TaskRecord, type TaskStore } from "./store.js";
export type { TasksOptions, TaskStatusListener } from "./options.js";
export {
  isTerminalStatus,
  TASKS_EXTENSION,
  type CreateTaskResult,
  type DetailedTask,
  type Task,
  type TaskStatus,
  type TaskStatusNotification,
  type TaskSupport,
} from "./types.js";
