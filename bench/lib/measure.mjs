// One repetition of one workload: set it up, check its first result, warm
// it up, time one window, close it. Used by the worker process (one
// repetition per process) and by the in-process smoke run.
import { driveAsync, driveSync, keepAwake, warmUp } from "./drive.mjs";

/**
 * @param {import("../catalog.mjs").Workload} spec
 * @param {{ warmup: { sliceMs: number, minMs: number, maxMs: number, plateauSlices: number }, windowMs: number, maxOps: number, pendingCount: number, pendingWarmup: number, coldStartSpawns: number }} profile
 * @returns {Promise<{ id: string, value: number, ops?: number, ms?: number }>}
 * @throws {Error} when the workload cannot be set up or answers something wrong.
 */
export async function measureOnce(spec, runProfile) {
  const profile = runProfile;
  const factory = await factoryOf(spec);
  if (spec.mode === "custom") {
    // A custom workload measures itself: the pending-exchange heap (count, warmup) or a cold start (spawns).
    const outcome = await factory({ ...spec.options, count: profile.pendingCount, warmup: profile.pendingWarmup, spawns: profile.coldStartSpawns });
    return { id: spec.id, value: outcome.value ?? outcome.heapGrowthBytes, ...outcome };
  }
  const instance = await factory(spec.options);
  // What the workload holds once set up, before any call: the peak-RSS section reports growth above it too.
  const setupRssBytes = process.memoryUsage().rss;
  try {
    const limits = { concurrency: spec.concurrency ?? 1, maxOps: profile.maxOps };
    let measured;
    let cpu;
    let serverMicros;
    let latencyP50Ms;
    /** @type {{ ops: number, serverMicros: number } | undefined} */
    let awake;
    /** @type {{ ms: number, ops: number, plateaued: boolean } | undefined} */
    let warm;
    if (spec.mode === "sync") {
      instance.check(instance.callSync());
      warm = await warmUp((slice) => driveSync(instance.callSync, { ...limits, ...slice }), profile.warmup);
      const cpuBefore = process.cpuUsage();
      measured = driveSync(instance.callSync, { ...limits, durationMs: profile.windowMs });
      cpu = process.cpuUsage(cpuBefore);
    } else if (spec.fixedOps !== undefined) {
      // Same work for every contender: a count, not a time window, and no warm-up
      // (a timed warm-up would give the faster SDK more work before the count starts).
      instance.check(await instance.call());
      const count = Math.min(spec.fixedOps, profile.maxFixedOps ?? Infinity);
      const cpuBefore = process.cpuUsage();
      measured = await driveAsync(instance.call, { ...limits, maxOps: count, durationMs: profile.fixedDeadlineMs });
      cpu = process.cpuUsage(cpuBefore);
      if (measured.ops < count) {
        throw new Error(`${spec.id} finished ${measured.ops} of ${count} operations within ${profile.fixedDeadlineMs} ms; its peak RSS would not be comparable`);
      }
    } else {
      instance.check(await instance.call());
      warm = await warmUp((slice) => driveAsync(instance.call, { ...limits, ...slice }), profile.warmup);
      const serverBefore = await instance.serverCpu?.();
      instance.startLatencies?.();
      const cpuBefore = process.cpuUsage();
      measured = await driveAsync(instance.call, { ...limits, durationMs: profile.windowMs });
      cpu = process.cpuUsage(cpuBefore);
      latencyP50Ms = instance.latencyP50?.();
      // A server in a process of its own (HTTP workloads): its CPU time over the same window,
      // then over a second window with the load client kept awake.
      if (serverBefore !== undefined) {
        serverMicros = (await instance.serverCpu()) - serverBefore;
        awake = await awakeWindow(instance, { ...limits, durationMs: profile.windowMs });
      }
    }
    // Process CPU time (every thread, so work handed to a thread pool counts
    // too): steadier than wall-clock when other processes share the cores.
    return figuresOf(spec, { ops: measured.ops, ms: measured.ms, cpuMicros: cpu.user + cpu.system, serverMicros, awake, latencyP50Ms, setupRssBytes, warm });
  } finally {
    await instance.close();
  }
}

/**
 * Drives `instance` for one window with the load client kept awake
 * ({@link keepAwake}) and counts its calls and its server process's CPU time.
 * A client that sleeps between answers makes every server's write pay to wake
 * it, more often the slower the server, so the server-CPU ratios are judged
 * on this window; the sleeping one is reported beside it.
 * @param {{ call(): Promise<unknown>, serverCpu(): Promise<number> }} instance
 * @param {{ concurrency: number, durationMs: number, maxOps: number }} limits
 * @returns {Promise<{ ops: number, serverMicros: number }>}
 */
async function awakeWindow(instance, limits) {
  const release = keepAwake();
  try {
    const serverBefore = await instance.serverCpu();
    const { ops } = await driveAsync(instance.call, limits);
    return { ops, serverMicros: (await instance.serverCpu()) - serverBefore };
  } finally {
    release();
  }
}

/**
 * Runs `measure`, which sets members up into `members` (each holds a server
 * process) and measures them, then closes every member set up, even when one
 * fails to close or measuring failed.
 * @template T
 * @param {object[]} members filled by `measure` (empty slots are skipped)
 * @param {(member: object) => Promise<void>} close
 * @param {() => Promise<T>} measure
 * @returns {Promise<T>}
 * @throws what measuring threw, else the first failure to close
 */
export async function measureThenClose(members, close, measure) {
  let results;
  try {
    results = await measure();
  } catch (error) {
    await closeEach(members, close);
    throw error;
  }
  const failure = await closeEach(members, close);
  if (failure !== undefined) throw failure;
  return results;
}

async function closeEach(members, close) {
  const closing = await Promise.allSettled(members.filter(Boolean).map(close));
  return closing.find((outcome) => outcome.status === "rejected")?.reason;
}

/**
 * The function that sets `spec` up, from its module.
 * @throws {Error} when the module exports no such function
 */
export async function factoryOf(spec) {
  const factory = (await import(spec.module))[spec.factory];
  if (typeof factory !== "function") throw new Error(`${spec.module} exports no function "${spec.factory}" for workload ${spec.id}`);
  return factory;
}

/**
 * One repetition's result from what its timed window (or its slices, summed) counted: the operations, the
 * time, the worker's CPU and, for a server in a process of its own, the server's, with the client asleep
 * between answers and (`awake`) kept awake.
 * @param {{ ops: number, ms: number, cpuMicros: number, serverMicros?: number, awake?: { ops: number, serverMicros: number },
 *   latencyP50Ms?: number, setupRssBytes: number, warm?: { ms: number, ops: number, plateaued: boolean } }} counted
 */
export function figuresOf(spec, { ops, ms, cpuMicros, serverMicros, awake, latencyP50Ms, setupRssBytes, warm }) {
  return {
    id: spec.id,
    value: (ops / ms) * 1000,
    ops,
    ms,
    cpuMicrosPerOp: cpuMicros / Math.max(1, ops),
    // The share of its core the worker used over the window: a load client near a whole core sets the pace itself.
    clientCpuShare: cpuMicros / 1000 / ms,
    ...(latencyP50Ms !== undefined && { latencyP50Ms }),
    ...(serverMicros !== undefined && { serverCpuMicrosPerOp: serverMicros / Math.max(1, ops) }),
    ...(awake !== undefined && { awakeServerCpuMicrosPerOp: awake.serverMicros / Math.max(1, awake.ops) }),
    setupRssBytes,
    ...(warm && { warmup: { ms: Math.round(warm.ms), ops: warm.ops, plateaued: warm.plateaued } }),
  };
}
