/**
 * The requests a 2025 session sent its client and still waits on (the
 * input requests its needs asked), by id, with the
 * deadline each must be answered by. One timer serves them all: a timer
 * set and cleared per question cost more than the rest of the question's
 * bookkeeping, so the session's timer stays armed for the oldest deadline
 * and, when it fires, fails what is overdue and re-arms for the next.
 *
 * @internal
 * @module
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { JsonRpcId } from "../../protocol/jsonrpc/messages.js";
import { FlightTable } from "../../protocol/flight-table.js";

/** One request the session waits on. @internal */
export interface Waiter {
  readonly method: string;
  /** `Date.now()` past which the request has timed out. */
  readonly deadline: number;
  /** Takes the client's result; does nothing once the waiter was settled (its entry is gone). */
  resolve(result: Record<string, unknown>): void;
  /** Fails the request; does nothing once the waiter was settled. */
  reject(error: unknown): void;
}

/** The waiting requests of one session and their one deadline timer. @internal */
export class PendingRequests {
  /** By `id`, in a table whose churn promotes nothing (see FlightTable): each question comes and goes. */
  readonly #byId = new FlightTable<Waiter>();
  readonly #timeoutMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** @param timeoutMs - how long the client has to answer (`legacySessions.requestTimeoutMs`). */
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** The deadline of a request sent now. */
  deadline(): number {
    return Date.now() + this.#timeoutMs;
  }

  /** Waits on `id` until `waiter.deadline` (or until it is settled). */
  add(id: JsonRpcId, waiter: Waiter): void {
    this.#byId.set(id, waiter);
    if (this.#timer === undefined) this.#arm(waiter.deadline - Date.now());
  }

  get(id: JsonRpcId): Waiter | undefined {
    return this.#byId.get(id);
  }

  has(id: JsonRpcId): boolean {
    return this.#byId.has(id);
  }

  /** Forgets `id`; true when it was still waited on (so the caller is the one to settle it). */
  delete(id: JsonRpcId): boolean {
    return this.#byId.delete(id);
  }

  /** Fails every waiting request with `error` and stops the timer: the session has ended. */
  rejectAll(error: unknown): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const waiter of this.#byId.values()) waiter.reject(error);
    this.#byId.clear();
  }

  /** The error of a request the client did not answer in time. */
  #overdue(waiter: Waiter): McpError {
    const seconds = this.#timeoutMs / 1000;
    return new McpError(JsonRpcErrorCode.InternalError, `The client did not answer ${waiter.method} within ${seconds} s (legacySessions.requestTimeoutMs)`);
  }

  #arm(delay: number): void {
    this.#timer = setTimeout(() => this.#sweep(), Math.max(0, delay));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Fails what is overdue; re-arms for the earliest deadline left, if any request still waits. */
  #sweep(): void {
    this.#timer = undefined;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const waiter of this.#byId.values()) {
      if (waiter.deadline <= now) waiter.reject(this.#overdue(waiter));
      else if (waiter.deadline < next) next = waiter.deadline;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next - now);
  }
}
