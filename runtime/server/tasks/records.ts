/**
 * Task records and their wire form: ids, the one shape every record has,
 * and the `CreateTaskResult`s only the engine may send.
 *
 * @internal
 */
import type { TaskRecord } from "./store.js";
import type { DetailedTask, TaskStatus } from "./types.js";

const CREATED = new WeakSet<object>();

/** Marks a `CreateTaskResult` as the engine's own. @internal */
export function markCreated(result: object): void {
  CREATED.add(result);
}

/** True for a `CreateTaskResult` the engine made (handlers cannot forge one). @internal */
export function isCreatedTask(value: unknown): boolean {
  return typeof value === "object" && value !== null && CREATED.has(value);
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** 128 random bits as 32 hex digits, one flat string (a task id is kept as long as its task). @internal */
export function randomTaskId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const parts = new Array<string>(16);
  for (let i = 0; i < 16; i++) parts[i] = HEX[bytes[i]!]!;
  return parts.join("");
}

/** True for an object with at least one own enumerable key. @internal */
export function hasKeys(object: object): boolean {
  for (const _ in object) return true;
  return false;
}

/** A record with every field in one order, so all records share one shape. @internal */
export function taskRecord(
  taskId: string,
  status: TaskStatus,
  createdAt: number,
  lastUpdatedAt: number,
  expiresAt: number | null,
  pollIntervalMs: number,
  owner: string | undefined,
): TaskRecord {
  const record: TaskRecord = { taskId, status, createdAt, lastUpdatedAt, expiresAt, pollIntervalMs };
  if (owner !== undefined) (record as { owner?: string }).owner = owner;
  return record;
}

/** The wire form of a stored task; `ttlMs` counts from creation to when the store may drop it. @internal */
export function wireTask(record: TaskRecord, ttlMs: number): DetailedTask {
  const reference = record.expiresAt ?? record.lastUpdatedAt + ttlMs;
  const task: DetailedTask = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: Math.max(1, Math.round(reference - record.createdAt)),
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/** {@link wireTask} with what the status implies inlined (`inputRequests`, `result`, `error`). @internal */
export function detailedTask(record: TaskRecord, ttlMs: number): DetailedTask {
  const task = wireTask(record, ttlMs);
  if (record.status === "input_required" && record.inputRequests !== undefined) task.inputRequests = record.inputRequests;
  if (record.status === "completed" && record.result !== undefined) task.result = record.result;
  if (record.status === "failed" && record.error !== undefined) task.error = record.error;
  return task;
}
