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
 * Keeps this process (the load client) from ever blocking in `epoll_wait`
 * until the returned function is called: on loopback a server's write that
 * finds its client asleep pays for waking it, a cost that grows with the
 * server's own and that a server on a network never pays (bench/PROFILES.md).
 * The spin costs the client's own core only (it is pinned apart from the
 * servers), and only while it has nothing else to do.
 * @returns {() => void} lets the process sleep again
 */
export function keepAwake() {
  let awake = true;
  const spin = () => {
    if (awake) setImmediate(spin);
  };
  spin();
  return () => {
    awake = false;
  };
}

/**
 * {@link driveAsync} for a fixed time alone: `call` from `concurrency` lanes
 * for `ms`; resolves the operations completed.
 * @param {() => Promise<unknown>} call
 * @param {number} concurrency
 * @param {number} ms
 * @returns {Promise<number>}
 */
export async function driveFor(call, concurrency, ms) {
  return (await driveAsync(call, { concurrency, durationMs: ms, maxOps: Number.MAX_SAFE_INTEGER })).ops;
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

/**
 * Warms a workload up until its throughput stops rising: it runs slices of
 * `sliceMs` and ends once `plateauSlices` slices in a row have failed to beat
 * the best slice so far by more than `tolerance`, after at least `minMs` and
 * at most `maxMs`. A fixed short warm-up measured the JIT instead of the
 * code: on the reference machine the HTTP workloads keep speeding up for 3 s
 * (ours, the echo) to 7 s (the official SDK), so a 300 ms warm-up timed each
 * SDK part-way through its own compilation, at different stages.
 * @param {(limits: { durationMs: number }) => Promise<{ ops: number, perSecond: number }> | { ops: number, perSecond: number }} slice
 *   runs the workload for `durationMs` and reports its throughput
 * @param {{ sliceMs: number, minMs: number, maxMs: number, plateauSlices: number, tolerance?: number }} options
 * @returns {Promise<{ ms: number, ops: number, slices: number, plateaued: boolean }>}
 * @throws {RangeError} on a non-positive slice, a minimum above the maximum, or fewer than one plateau slice.
 */
export async function warmUp(slice, options) {
  const warming = plateauWatch(options);
  const begin = performance.now();
  while (!warming.done) {
    const { ops, perSecond } = await slice({ durationMs: warming.nextSliceMs() });
    warming.record(ops, perSecond, performance.now() - begin);
  }
  return warming.state;
}

/**
 * The bookkeeping of {@link warmUp} for one workload, for a caller that runs
 * the slices itself (an interleaved set warms its members in turns): `record`
 * each slice's throughput and the workload's warming time so far, until `done`.
 * @param {{ sliceMs: number, minMs: number, maxMs: number, plateauSlices: number, tolerance?: number }} options
 * @throws {RangeError} on a non-positive slice, a minimum above the maximum, or fewer than one plateau slice.
 */
export function plateauWatch({ sliceMs, minMs, maxMs, plateauSlices, tolerance = 0.03 }) {
  checkLimits(1, sliceMs, maxMs);
  if (!(minMs >= 0 && minMs <= maxMs)) throw new RangeError(`warmUp: minMs must be from 0 to maxMs (${maxMs}), got ${minMs}`);
  if (!(Number.isInteger(plateauSlices) && plateauSlices >= 1)) {
    throw new RangeError(`warmUp: plateauSlices must be a positive integer, got ${plateauSlices}`);
  }
  let best = 0;
  let sinceBest = 0;
  const state = { ms: 0, ops: 0, slices: 0, plateaued: false };
  return {
    state,
    done: false,
    nextSliceMs: () => Math.min(sliceMs, maxMs - state.ms),
    record(ops, perSecond, elapsedMs) {
      state.ops += ops;
      state.slices++;
      state.ms = elapsedMs;
      if (perSecond > best * (1 + tolerance)) {
        best = perSecond;
        sinceBest = 0;
      } else {
        sinceBest++;
        best = Math.max(best, perSecond);
      }
      state.plateaued = sinceBest >= plateauSlices;
      this.done = elapsedMs >= maxMs || (state.plateaued && elapsedMs >= minMs);
    },
  };
}

function checkLimits(concurrency, durationMs, maxOps) {
  for (const [name, value] of Object.entries({ concurrency, durationMs, maxOps })) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`drive: "${name}" must be a positive number, got ${value}`);
    }
  }
}

/**
 * Runs `step` in batches of `batch` for about `milliseconds`; returns
 * wall-clock ops/s and process CPU µs per op (all threads, so work handed to
 * a thread pool such as Web Crypto's counts). The interleaved-slice benches
 * (seal + verify, the official codec) time each contender's slice with it.
 * @param {() => Promise<unknown>} step
 * @param {number} milliseconds
 * @param {number} batch
 * @returns {Promise<{ opsPerSecond: number, cpuMicroseconds: number }>}
 */
export async function timedSlice(step, milliseconds, batch) {
  let ops = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + milliseconds;
  while (performance.now() < deadline) {
    for (let i = 0; i < batch; i++) await step();
    ops += batch;
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { opsPerSecond: ops / ((performance.now() - started) / 1000), cpuMicroseconds: (cpu.user + cpu.system) / ops };
}
