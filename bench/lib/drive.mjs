// The measurement loops a worker runs: a warm-up, then one timed window.
// Every loop is bounded twice, by a deadline and by a maximum operation count,
// so a workload that turns out far faster than expected still ends.

const SYNC_BATCH = 64;

/**
 * Runs `call` from `concurrency` lanes until `durationMs` elapse or `maxOps`
 * operations have started, and reports completed operations per second.
 * Each lane awaits its call before starting the next, so at most
 * `concurrency` operations are in flight at once.
 * @param {() => Promise<unknown>} call one operation (a tool call, a seal+verify…)
 * @param {{ concurrency: number, durationMs: number, maxOps: number }} limits
 * @returns {Promise<{ ops: number, ms: number, perSecond: number }>}
 * @throws {RangeError} on a non-positive concurrency, duration or bound.
 */
export async function driveAsync(call, { concurrency, durationMs, maxOps }) {
  checkLimits(concurrency, durationMs, maxOps);
  let started = 0;
  let completed = 0;
  const begin = performance.now();
  const deadline = begin + durationMs;
  const lane = async () => {
    while (started < maxOps && performance.now() < deadline) {
      started++;
      await call();
      completed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const ms = performance.now() - begin;
  return { ops: completed, ms, perSecond: (completed / ms) * 1000 };
}

/**
 * Runs a synchronous operation in batches until `durationMs` elapse or
 * `maxOps` operations ran. Batching keeps the clock read out of the
 * per-operation cost of sub-microsecond work such as AJV validation.
 * @param {() => unknown} call
 * @param {{ durationMs: number, maxOps: number }} limits
 * @returns {{ ops: number, ms: number, perSecond: number }}
 */
export function driveSync(call, { durationMs, maxOps }) {
  checkLimits(1, durationMs, maxOps);
  let ops = 0;
  let sink = 0;
  const begin = performance.now();
  const deadline = begin + durationMs;
  while (ops < maxOps && performance.now() < deadline) {
    for (let i = 0; i < SYNC_BATCH; i++) {
      // Keep the result observable so the JIT cannot drop the call.
      if (call()) sink++;
    }
    ops += SYNC_BATCH;
  }
  const ms = performance.now() - begin;
  if (sink < 0) console.log(sink);
  return { ops, ms, perSecond: (ops / ms) * 1000 };
}

function checkLimits(concurrency, durationMs, maxOps) {
  for (const [name, value] of Object.entries({ concurrency, durationMs, maxOps })) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`drive: "${name}" must be a positive number, got ${value}`);
    }
  }
}
