/**
 * Runs a generator that yields only what it has to wait for: synchronously
 * while nothing is yielded, so a `needs` round whose resolvers and answer
 * checks all answer at once costs its request no promise and no turn, and
 * through promises from the first yielded thenable on. A `yield` hands back
 * the settled value, or throws its rejection at that point, exactly as an
 * `await` would.
 *
 * @internal
 * @module
 */
import { isThenable } from "../../protocol/guards.js";

/**
 * The generator's return value, at once when it never yielded a thenable, else a promise of it.
 * @throws what the generator throws before its first wait (a rejection after it)
 * @internal
 */
export function runSteps<T>(steps: Generator<unknown, T, unknown>): T | Promise<T> {
  return advance(steps, steps.next());
}

function advance<T>(steps: Generator<unknown, T, unknown>, step: IteratorResult<unknown, T>): T | Promise<T> {
  while (!step.done) {
    const waited = step.value;
    // A generator here yields only thenables; anything else is handed straight back.
    if (!isThenable(waited)) {
      step = steps.next(waited);
      continue;
    }
    return Promise.resolve(waited).then(
      (value) => advance(steps, steps.next(value)),
      (error: unknown) => advance(steps, steps.throw(error)),
    );
  }
  return step.value;
}
