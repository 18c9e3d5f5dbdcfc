/**
 * The cancellation of one round of questions a 2025 session asks its
 * client (`LegacySession.askAll`): what each question's wait listens to,
 * aborted when the call is cancelled or when one question is refused (the
 * others are then withdrawn). An `AbortController` did this job, but making
 * one (and the request's own signal it followed) cost more than the rest of
 * the round's bookkeeping, on every question asked.
 *
 * @internal
 * @module
 */

/** What a question's wait needs of its cancellation; an `AbortSignal` is one too. @internal */
export interface RoundSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** One round's cancellation: listeners run once, on the first `abort`. @internal */
export class Round implements RoundSignal {
  reason: unknown;
  aborted = false;
  #listeners: Array<() => void> = [];

  addEventListener(_type: "abort", listener: () => void): void {
    if (!this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const at = this.#listeners.indexOf(listener);
    if (at !== -1) this.#listeners.splice(at, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}
