/**
 * Runs tool calls as tasks (SEP-2663) and answers `tasks/get`,
 * `tasks/update` and `tasks/cancel`. A task runs the tool's ordinary
 * handler: when it returns an `InputRequiredResult` the task turns
 * `input_required` with those `inputRequests`, the client answers through
 * `tasks/update`, and the handler runs again with `ctx.inputResponses` and
 * its `requestState` (kept in memory, never sent), exactly as over MRTR.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { anyRoundRepeated } from "../../protocol/rounds.js";
import { copyToExtend } from "../../protocol/copy.js";
import type { RequestContextImpl } from "../context.js";
import { internalError, toErrorObject } from "../errors.js";
import { MetaKey } from "../meta.js";
import { callHandler, type AnyHandler } from "../request.js";
import { escalationOf } from "./escalate.js";
import { expiredTask, extensionNotDeclared, taskNotAwaitingInput, tooManyTasks, unknownTask } from "./errors.js";
import { liveTaskContext, ownerOf, type LiveTask } from "./live.js";
import type { TaskHooks, TaskHost, TasksOptions, TaskStatusListener } from "./options.js";
import { checkInputResponse, checkTaskParams } from "./params.js";
import { detailedTask, hasKeys, markCreated, randomTaskId, taskRecord, wireTask } from "./records.js";
import { MemoryTaskStore, TaskStoreFull, type TaskRecord, type TaskStore } from "./store.js";
import { isTerminalStatus, TASKS_EXTENSION, taskDeclarationOf, type CreateTaskResult, type TaskDeclaration, type TaskStatus } from "./types.js";

function declaresTasks(ctx: RequestContextImpl): boolean {
  const extensions = (ctx.clientCapabilities as { extensions?: Record<string, unknown> }).extensions;
  const entry = typeof extensions === "object" && extensions !== null ? extensions[TASKS_EXTENSION] : undefined;
  return typeof entry === "object" && entry !== null;
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw new RangeError(`tasks.${name} must be a positive integer, got ${String(value)}`);
  return value as number;
}

/** The tasks extension of one server. @internal */
export class TaskEngine {
  private readonly host: TaskHost;
  private readonly store: TaskStore;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxRounds: number;
  /** A tool's task declaration: what sends its `tools/call` to {@link TaskEngine.callTool} (the task route). */
  readonly support: (toolName: string) => TaskDeclaration | undefined;
  /** Whether the task methods are answered and the extension advertised. */
  readonly enabled: () => boolean;
  private readonly live = new Map<string, LiveTask>();
  private readonly listeners = new Set<TaskStatusListener>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(host: TaskHost, options: TasksOptions, hooks?: TaskHooks) {
    if (typeof options !== "object" || options === null) throw new TypeError("tasks must be an options object, e.g. { ttlMs: 600_000 }");
    this.host = host;
    this.store = options.store ?? new MemoryTaskStore();
    this.ttlMs = positive("ttlMs", options.ttlMs, 600_000);
    this.pollIntervalMs = positive("pollIntervalMs", options.pollIntervalMs, 1_000);
    this.maxRounds = positive("maxInputRounds", options.maxInputRounds, 10);
    const own = options.taskSupport;
    if (own !== undefined && typeof own !== "function")
      throw new TypeError('tasks.taskSupport must be a function (toolName) => "optional" | "required" | undefined');
    this.enabled = hooks === undefined ? () => true : () => hooks.enabled();
    this.support =
      hooks !== undefined ? hooks.support : (name) => (own === undefined ? undefined : taskDeclarationOf(`tasks.taskSupport(${JSON.stringify(name)})`, own(name)));
  }

  /** How many tasks this process is running or waiting on. */
  get running(): number {
    return this.live.size;
  }

  /** The capabilities with the extension added, while tasks are on. */
  advertise(capabilities: Record<string, unknown>): Record<string, unknown> {
    if (!this.enabled()) return capabilities;
    const extensions = typeof capabilities.extensions === "object" && capabilities.extensions !== null ? capabilities.extensions : {};
    return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  onStatus(listener: TaskStatusListener): () => void {
    if (typeof listener !== "function") throw new TypeError("onTaskStatus: listener must be a function");
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs a call of a tool that declares `task` (the task route): as a task
   * when the client declared the extension, within the call when it did not
   * and the tool allows that, else `-32021`.
   */
  async callTool(declaration: TaskDeclaration, handler: AnyHandler, call: Record<string, unknown>, ctx: RequestContextImpl): Promise<Record<string, unknown>> {
    const declared = declaresTasks(ctx);
    if (declaration.support === "required" && !declared) throw extensionNotDeclared(`Tool ${JSON.stringify(call.name)}`);
    if (declaration.start === "call") return declared ? this.start(handler, call, ctx) : this.inline(await callHandler(handler, call, ctx), ctx);
    const raw = await callHandler(handler, call, ctx);
    const work = escalationOf(raw);
    if (work === undefined) return raw;
    if (!declared) return this.inline(raw, ctx);
    // The escalated work starts its own rounds: the call's answers were for the handler that escalated.
    return this.start((_params, c) => work(c as RequestContextImpl), call, ctx, false);
  }

  /**
   * Answers `tasks/get`, `tasks/update` or `tasks/cancel` (registered on the
   * server like any custom method, `setRequestHandler`): the result's body,
   * which the request path finishes like any other.
   */
  async answer(method: string, params: unknown, ctx: RequestContextImpl): Promise<Record<string, unknown>> {
    // McpServer always has an engine; until a tool declares task (or `tasks` is set) the extension is not there.
    if (!this.enabled()) throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
    if (!declaresTasks(ctx)) throw extensionNotDeclared(method);
    const checked = checkTaskParams(method, params);
    const task = await this.find(checked.taskId, ctx);
    if (method === "tasks/get") return detailedTask(task, this.ttlMs) as unknown as Record<string, unknown>;
    if (method === "tasks/cancel") {
      if (!isTerminalStatus(task.status)) await this.cancel(task.taskId, "Cancelled by the client (tasks/cancel)");
      return {};
    }
    const live = this.live.get(task.taskId);
    if (task.status === "input_required" && live?.waiting !== undefined) await this.deliver(live, checked.inputResponses ?? {}, ctx.protocolVersion);
    // Answers nothing waits for are ignored, as the extension says, except on a cancelled task: those would be lost unnoticed.
    else if (task.status === "cancelled" || (task.status === "input_required" && live === undefined)) throw taskNotAwaitingInput(task.taskId, task.status);
    return {};
  }

  private async find(taskId: string, ctx: RequestContextImpl): Promise<TaskRecord> {
    const found = await this.store.get(taskId, Date.now());
    if (found === undefined) throw unknownTask(taskId);
    // Another caller's task, live or expired, is reported exactly like a task that does not exist.
    const owner = ownerOf(ctx);
    if ("expiredAt" in found) throw found.owner === owner ? expiredTask(taskId, found.expiredAt) : unknownTask(taskId);
    if (found.task.owner !== owner) throw unknownTask(taskId);
    return found.task;
  }

  private inline(raw: Record<string, unknown>, ctx: RequestContextImpl): Promise<Record<string, unknown>> | Record<string, unknown> {
    const work = escalationOf(raw);
    return work === undefined ? raw : callHandler((_p, c) => work(c as RequestContextImpl), {}, ctx).then((next) => this.inline(next, ctx));
  }

  private async start(handler: AnyHandler, params: Record<string, unknown>, ctx: RequestContextImpl, carryRound = true): Promise<Record<string, unknown>> {
    const now = Date.now();
    const owner = ownerOf(ctx);
    const record = taskRecord(randomTaskId(), "working", now, now, null, this.pollIntervalMs, owner);
    try {
      await this.store.create(record);
    } catch (error) {
      if (error instanceof TaskStoreFull) throw tooManyTasks(error.limit);
      throw internalError("Internal error: the task store failed to create the task", error);
    }
    // No AbortController up front: the context makes its signal only if the handler reads it (most never do).
    const live: LiveTask = { record, ctx: liveTaskContext(ctx), round: 0, handler, params };
    this.live.set(record.taskId, live);
    if (carryRound) {
      live.ctx.inputResponses = ctx.inputResponses;
      live.ctx.requestState = ctx.requestState;
    }
    const created: CreateTaskResult = { resultType: "task", ...wireTask(record, this.ttlMs), _meta: { [MetaKey.serverInfo]: this.host.serverInfo } };
    markCreated(created);
    void Promise.resolve().then(() => this.step(live));
    this.emit(record);
    return created as unknown as Record<string, unknown>;
  }

  /**
   * One run of the task's handler and what follows from its answer: the next
   * run (escalated work), `input_required` (the task parks, holding no
   * suspended call, until {@link TaskEngine.deliver} resumes it), or the end.
   */
  private async step(live: LiveTask): Promise<void> {
    const { ctx } = live;
    try {
      let raw = await callHandler(live.handler, live.params, ctx);
      for (;;) {
        if (live.ended) return;
        const work = escalationOf(raw);
        if (work === undefined) break;
        // Already a task: the escalated work simply runs on.
        live.handler = (_p, c) => work(c as RequestContextImpl);
        raw = await callHandler(live.handler, live.params, ctx);
      }
      if (raw.resultType === "input_required") {
        if (++live.round > this.maxRounds) {
          throw internalError(
            `Internal error: the task still asked for input after ${this.maxRounds} rounds; ` +
              (anyRoundRepeated(live.asked ?? [])
                ? "some rounds asked the same questions again, so the answers given were not taken"
                : "every round asked new questions: raise tasks.maxInputRounds if the tool really asks this much"),
          );
        }
        const round = this.host.finishInput(raw, ctx);
        const requests = round.inputRequests as Record<string, { method: string; params?: Record<string, unknown> }> | undefined;
        if (requests !== undefined && hasKeys(requests)) (live.asked ??= []).push(requests);
        if (requests === undefined || !hasKeys(requests)) {
          // Only state: run again at once with it, as a client would retry.
          this.rerun(live, {}, round.requestState);
          return;
        }
        await this.park(live, requests, round.requestState);
        return;
      }
      if (raw.resultType !== undefined && raw.resultType !== "complete") {
        throw internalError(`Internal error: a task's handler returned resultType ${JSON.stringify(raw.resultType)}; use "complete" or "input_required"`);
      }
      const result = this.host.finishComplete(copyToExtend(raw), ctx);
      await this.settle(live, "completed", { result });
    } catch (error) {
      if (live.ended) return;
      await this.settle(live, "failed", { error: toErrorObject(error, "tools/call (task)", this.host.logger) });
    }
  }

  /** Runs the handler again with the round's answers and its state (which never left the server). */
  private rerun(live: LiveTask, answers: Record<string, unknown>, requestState: string | undefined): void {
    const { ctx } = live;
    ctx.inputResponses = answers as RequestContextImpl["inputResponses"];
    ctx.requestState = requestState;
    live.params = { ...live.params, inputResponses: answers, requestState };
    if (requestState === undefined) delete live.params.requestState;
    void Promise.resolve().then(() => this.step(live));
  }

  /** Parks the task in `input_required`; its keys on the wire are unique per task (`r<round>.<key>`). */
  private async park(
    live: LiveTask,
    requests: Record<string, { method: string; params?: Record<string, unknown> }>,
    requestState: string | undefined,
  ): Promise<void> {
    const prefix = `r${live.round}.`;
    const outward: NonNullable<TaskRecord["inputRequests"]> = {};
    for (const key in requests) outward[prefix + key] = requests[key]!;
    live.waiting = { prefix, answers: {}, requestState };
    this.sweepSoon();
    await this.change(live, "input_required", { inputRequests: outward }, Date.now() + this.ttlMs);
  }

  private async deliver(live: LiveTask, responses: Record<string, unknown>, version: string): Promise<void> {
    const waiting = live.waiting!;
    const pending = { ...live.record.inputRequests };
    // Every answer is checked (in the update's own revision, `version`) before any is applied, so a bad one loses none of the others.
    for (const external in responses) if (external in pending) checkInputResponse(external, responses[external], version);
    for (const external in responses) {
      // Unknown or already answered keys are ignored, as the extension says.
      if (!(external in pending)) continue;
      waiting.answers[external.slice(waiting.prefix.length)] = responses[external];
      delete pending[external];
    }
    if (hasKeys(pending)) {
      await this.change(live, "input_required", { inputRequests: pending }, live.record.expiresAt);
      return;
    }
    live.waiting = undefined;
    await this.change(live, "working", {}, null);
    this.rerun(live, waiting.answers, waiting.requestState);
  }

  /** Abandons tasks whose questions went unanswered for ttlMs (their records expire in the store on their own). */
  private sweepSoon(): void {
    if (this.sweeper !== undefined) return;
    const sweep = (): void => {
      const now = Date.now();
      let waiting = 0;
      for (const live of this.live.values()) {
        if (live.waiting === undefined) continue;
        if (live.record.expiresAt !== null && live.record.expiresAt <= now) {
          live.ended = true;
          live.waiting = undefined;
          live.ctx.cancel(new Error("the task's questions went unanswered for its ttlMs"));
          this.live.delete(live.record.taskId);
          live.ctx.dispose();
        } else waiting++;
      }
      if (waiting === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    };
    this.sweeper = setInterval(sweep, Math.min(this.ttlMs, 60_000));
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  private async cancel(taskId: string, message: string): Promise<void> {
    const live = this.live.get(taskId);
    if (live === undefined) {
      // Known to the store but not running here (restarted, or another instance): mark it all the same.
      const found = await this.store.get(taskId, Date.now());
      if (found !== undefined && "task" in found && !isTerminalStatus(found.task.status)) {
        const now = Date.now();
        const task = taskRecord(taskId, "cancelled", found.task.createdAt, now, now + this.ttlMs, found.task.pollIntervalMs, found.task.owner);
        task.statusMessage = message;
        await this.store.update(task);
        this.emit(task);
      }
      return;
    }
    live.ctx.cancel(new Error(message));
    await this.settle(live, "cancelled", { statusMessage: message });
  }

  private async settle(live: LiveTask, status: TaskStatus, fields: Pick<TaskRecord, "result" | "error" | "statusMessage">): Promise<void> {
    live.ended = true;
    live.waiting = undefined;
    this.live.delete(live.record.taskId);
    live.ctx.dispose();
    if (status !== "cancelled") {
      // A shared store may hold a cancel another instance recorded meanwhile: a terminal status never changes.
      const stored = await Promise.resolve()
        .then(() => this.store.get(live.record.taskId, Date.now()))
        .catch(() => undefined);
      if (stored !== undefined && "task" in stored && isTerminalStatus(stored.task.status)) return;
    }
    await this.change(live, status, fields, Date.now() + this.ttlMs);
  }

  /** Stores the task's next state: a fresh record (never a mutated one: a store may hold the old one). */
  private async change(
    live: LiveTask,
    status: TaskStatus,
    fields: Pick<TaskRecord, "result" | "error" | "statusMessage" | "inputRequests">,
    expiresAt: number | null,
  ): Promise<void> {
    const previous = live.record;
    const next = taskRecord(previous.taskId, status, previous.createdAt, Date.now(), expiresAt, previous.pollIntervalMs, previous.owner);
    if (fields.statusMessage !== undefined) next.statusMessage = fields.statusMessage;
    if (fields.inputRequests !== undefined) next.inputRequests = fields.inputRequests;
    if (fields.result !== undefined) next.result = fields.result;
    if (fields.error !== undefined) next.error = fields.error;
    live.record = next;
    try {
      await this.store.update(next);
    } catch (error) {
      this.host.logger.error(`task ${next.taskId}: the task store failed to save its ${next.status} state`, { error });
    }
    this.emit(next);
  }

  private emit(record: TaskRecord): void {
    if (this.listeners.size === 0) return;
    const task = detailedTask(record, this.ttlMs);
    for (const listener of this.listeners) {
      try {
        listener(task);
      } catch (error) {
        this.host.logger.warn("a task status listener threw", { error });
      }
    }
  }
}
