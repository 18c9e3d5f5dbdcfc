/**
 * The options of the tasks extension, and what the engine needs from its server.
 *
 * @module
 */
import type { InputRequiredResult } from "../../protocol/types.js";
import type { RequestContextImpl } from "../context.js";
import type { ServerLogger } from "../types.js";
import type { MemoryTaskStore, TaskStore } from "./store.js";
import type { DetailedTask, TaskDeclaration, TaskSupport } from "./types.js";

/** Options of the tasks extension (the `tasks` option of `Server` and `McpServer`). */
export interface TasksOptions {
  /** Where tasks are kept. Default: a {@link MemoryTaskStore} (10,000 tasks at most). */
  store?: TaskStore;
  /**
   * How long a task is kept after its last change that waits on the client (a result to
   * fetch, questions to answer), in milliseconds (default 600,000: ten minutes). A task
   * left unanswered that long is abandoned; a result not fetched that long is discarded.
   */
  ttlMs?: number;
  /** The polling interval suggested to clients, in milliseconds (default 1,000). */
  pollIntervalMs?: number;
  /** How many rounds of questions one task may ask (default 10); one more fails the task. */
  maxInputRounds?: number;
  /** Low-level `Server` only: how each tool takes part (McpServer reads its tools' `task` option). */
  taskSupport?: (toolName: string) => TaskSupport | undefined;
}

/** What the engine needs from its server. @internal */
export interface TaskHost {
  readonly serverInfo: unknown;
  readonly logger: ServerLogger;
  /** Finishes a complete `tools/call` result (stamps, validates against the schema of the call's protocol version). */
  finishComplete(raw: Record<string, unknown>, ctx: RequestContextImpl): Record<string, unknown>;
  /** Finishes an `InputRequiredResult` and checks the client can answer it. */
  finishInput(raw: Record<string, unknown>, ctx: RequestContextImpl): InputRequiredResult;
}

/** A status change, as `notifications/tasks/status` carries it. */
export type TaskStatusListener = (task: DetailedTask) => void;

/**
 * How McpServer tells its `Server` which tools take part and whether tasks are
 * on at all (once a tool declares `task`), without a public option.
 * @internal
 */
export const TASK_HOOKS: unique symbol = Symbol("mcp-roundtrip/task-hooks");

/** What {@link TASK_HOOKS} carries. @internal */
export interface TaskHooks {
  support(toolName: string): TaskDeclaration | undefined;
  enabled(): boolean;
}
