/**
 * Where tasks live between polls: the pluggable {@link TaskStore} and its
 * in-memory default, bounded in count and in time.
 *
 * @module
 */
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc/errors.js";
import type { MaybePromise } from "../types.js";
import type { DetailedTask, TaskStatus } from "./types.js";

/** One task as a store keeps it: the wire fields, as numbers where the wire has times, plus what binds it. */
export interface TaskRecord {
  /** The id the server minted: unguessable, and the key every `tasks/get`, `tasks/update` and `tasks/cancel` names. */
  readonly taskId: string;
  /** Where the task stands; once terminal (completed, failed, cancelled) it never changes again. */
  status: TaskStatus;
  /** A human-readable note on the status, e.g. why it failed. */
  statusMessage?: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** Epoch milliseconds. */
  lastUpdatedAt: number;
  /** When the store may drop the task (epoch milliseconds); `null` while it works, since running work is not dropped. */
  expiresAt: number | null;
  /** The suggested poll interval, in milliseconds. */
  pollIntervalMs: number;
  /** The caller the task belongs to (a digest of the principal); `undefined` for unauthenticated callers. */
  readonly owner?: string;
  /** What the task waits for while `input_required`. */
  inputRequests?: DetailedTask["inputRequests"];
  /** The tool's result, once `completed`. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error the call ended with, once `failed`. */
  error?: JsonRpcErrorObject;
}

/**
 * What looking a task up finds: the task, the time a task of that id expired
 * (with its owner, so another caller learns nothing), or nothing.
 */
export type TaskLookup =
  | {
      /** The task, live or finished. */
      task: TaskRecord;
    }
  | {
      /** When the task expired (epoch milliseconds): reported as expired, not unknown. */
      expiredAt: number;
      /** Its owner, so only that caller learns it existed. */
      owner?: string;
    }
  | undefined;

/**
 * Persists tasks. The server calls it from one process per task (the one
 * running the work); a store shared by a fleet lets any instance answer
 * `tasks/get`. Methods may return promises.
 */
export interface TaskStore {
  /**
   * Stores a new task before its handle is sent (the extension requires a
   * durable create).
   * @throws TaskStoreFull when the store holds as many tasks as it may
   */
  create(task: TaskRecord): MaybePromise<void>;
  /** Looks a task up; reports an expired one as such rather than as unknown, while it still remembers it. */
  get(taskId: string, now: number): MaybePromise<TaskLookup>;
  /** Replaces a stored task with its new state. */
  update(task: TaskRecord): MaybePromise<void>;
}

/** Thrown by {@link TaskStore.create} when the store is full. */
export class TaskStoreFull extends Error {
  /** Always `"TaskStoreFull"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "TaskStoreFull" as const;
  /** How many tasks the store holds at most. */
  readonly limit: number;

  /** @param limit - the store's bound */
  constructor(limit: number) {
    super(`the task store holds its limit of ${limit} tasks`);
    this.limit = limit;
  }
}

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks held at once, working or finished (default 10,000); creating one more throws {@link TaskStoreFull}. */
  maxTasks?: number;
  /** How many expired task ids are remembered, so a late poll hears "expired" rather than "unknown" (default: `maxTasks`). */
  maxTombstones?: number;
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw new RangeError(`MemoryTaskStore: ${name} must be a positive integer, got ${String(value)}`);
  return value as number;
}

/** How many creates pass between sweeps of expired tasks. */
const SWEEP_EVERY = 256;

/**
 * The default {@link TaskStore}: a `Map` in this process, so tasks are lost
 * on restart and invisible to other instances. Bounded: at most `maxTasks`
 * tasks, and a task past its `expiresAt` is dropped (swept lazily, on
 * lookups and creates) and remembered as expired.
 *
 * @example
 * ```ts
 * const mcp = new McpServer(info, { tasks: { store: new MemoryTaskStore({ maxTasks: 50_000 }) } });
 * ```
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly tombstones = new Map<string, { expiredAt: number; owner?: string }>();
  private readonly maxTasks: number;
  private readonly maxTombstones: number;
  private creates = 0;

  /**
   * @param options - bounds
   * @throws RangeError for a bound that is not a positive integer
   */
  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = positiveInteger("maxTasks", options.maxTasks, 10_000);
    this.maxTombstones = positiveInteger("maxTombstones", options.maxTombstones, this.maxTasks);
  }

  /** How many tasks are held (expired ones not yet swept included). */
  get size(): number {
    return this.tasks.size;
  }

  create(task: TaskRecord): void {
    const now = Date.now();
    if (++this.creates % SWEEP_EVERY === 0 || this.tasks.size >= this.maxTasks) this.sweep(now);
    if (this.tasks.size >= this.maxTasks) throw new TaskStoreFull(this.maxTasks);
    this.tasks.set(task.taskId, task);
  }

  get(taskId: string, now: number): TaskLookup {
    const task = this.tasks.get(taskId);
    if (task === undefined) {
      return this.tombstones.get(taskId);
    }
    if (task.expiresAt !== null && task.expiresAt <= now) {
      return this.expire(task);
    }
    return { task };
  }

  update(task: TaskRecord): void {
    // A task dropped meanwhile (expired while a slow handler ran) stays dropped.
    if (this.tasks.has(task.taskId)) this.tasks.set(task.taskId, task);
  }

  private sweep(now: number): void {
    for (const task of this.tasks.values()) {
      if (task.expiresAt !== null && task.expiresAt <= now) this.expire(task);
    }
  }

  private expire(task: TaskRecord): { expiredAt: number; owner?: string } {
    this.tasks.delete(task.taskId);
    const tombstone: { expiredAt: number; owner?: string } = { expiredAt: task.expiresAt ?? Date.now() };
    if (task.owner !== undefined) tombstone.owner = task.owner;
    this.tombstones.set(task.taskId, tombstone);
    if (this.tombstones.size > this.maxTombstones) {
      // Oldest first: a Map iterates in insertion order.
      const oldest = this.tombstones.keys().next().value as string;
      this.tombstones.delete(oldest);
    }
    return tombstone;
  }
}
