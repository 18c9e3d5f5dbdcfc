/**
 * One round of questions a 2025 session asks its client
 * (`LegacySession.askAll`), and its cancellation: what each question's wait listens to,
 * aborted when the call is cancelled or when one question is refused (the
 * others are then withdrawn). An `AbortController` did this job, but making
 * one (and the request's own signal it followed) cost more than the rest of
 * the round's bookkeeping, on every question asked.
 *
 * @internal
 * @module
 */
import type { RequestContextImpl } from "../context.js";
import { toLegacyParams } from "./input-requests.js";

/** What a question's wait needs of its cancellation; an `AbortSignal` is one too. @internal */
export interface RoundSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** One round's cancellation: listeners run once, on the first `abort`. @internal */
class Round implements RoundSignal {
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

/** What asking a round needs of its session. @internal */
export interface Asker {
  request(method: string, params: Record<string, unknown>, related: RequestContextImpl | undefined, signal?: RoundSignal): Promise<Record<string, unknown>>;
}

/**
 * Asks the client every request of one round at once (in 2025 shape, see
 * `toLegacyParams`) and resolves with their results under the same keys.
 * One refusal withdraws the others; the call's cancellation withdraws all.
 * @internal
 */
export async function askRound(
  session: Asker,
  requests: Record<string, { method: string; params?: Record<string, unknown> }>,
  ctx: RequestContextImpl,
): Promise<Record<string, Record<string, unknown>>> {
  const keys = Object.keys(requests);
  const round = new Round(); // the call's signal is made only if it is cancelled
  const detach = ctx.whenCancelled(() => round.abort(ctx.signal.reason));
  const send = (key: string) => {
    const { method, params } = requests[key]!;
    return session.request(method, toLegacyParams(method, params ?? {}), ctx, round);
  };
  try {
    // One question, the usual round: no Promise.all, and nothing else to withdraw if it is refused.
    if (keys.length === 1) return { [keys[0]!]: await send(keys[0]!) };
    const answers = await Promise.all(
      keys.map((key) =>
        send(key).catch((error: unknown) => {
          round.abort(error);
          throw error;
        }),
      ),
    );
    const byKey: Record<string, Record<string, unknown>> = {};
    keys.forEach((key, index) => {
      byKey[key] = answers[index]!;
    });
    return byKey;
  } finally {
    detach();
  }
}
