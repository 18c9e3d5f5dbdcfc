// One repetition of one workload: set it up, check its first result, warm
// it up, time one window, close it. Used by the worker process (one
// repetition per process) and by the in-process smoke run.
import { driveAsync, driveSync, warmUp } from "./drive.mjs";

/**
 * @param {import("../catalog.mjs").Workload} spec
 * @param {{ warmup: { sliceMs: number, minMs: number, maxMs: number, plateauSlices: number }, windowMs: number, maxOps: number, pendingCount: number, pendingWarmup: number, coldStartSpawns: number }} profile
 * @returns {Promise<{ id: string, value: number, ops?: number, ms?: number }>}
 * @throws {Error} when the workload cannot be set up or answers something wrong.
 */
export async function measureOnce(spec, runProfile) {
  const profile = runProfile;
  const module = await import(spec.module);
  const factory = module[spec.factory];
  if (typeof factory !== "function") {
    throw new Error(`${spec.module} exports no function "${spec.factory}" for workload ${spec.id}`);
  }
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
      // A server in a process of its own (HTTP workloads): its CPU time over the same window.
      if (serverBefore !== undefined) serverMicros = (await instance.serverCpu()) - serverBefore;
    }
    // Process CPU time (every thread, so work handed to a thread pool counts
    // too): steadier than wall-clock when other processes share the cores.
    const cpuMicrosPerOp = (cpu.user + cpu.system) / Math.max(1, measured.ops);
    // The share of its core the worker used over the window: a load client near a whole core sets the pace itself.
    const clientCpuShare = (cpu.user + cpu.system) / 1000 / measured.ms;
    const warmup = warm && { ms: Math.round(warm.ms), ops: warm.ops, plateaued: warm.plateaued };
    const serverCpuMicrosPerOp = serverMicros === undefined ? undefined : serverMicros / Math.max(1, measured.ops);
    return {
      id: spec.id,
      value: measured.perSecond,
      ops: measured.ops,
      ms: measured.ms,
      cpuMicrosPerOp,
      clientCpuShare,
      ...(latencyP50Ms !== undefined && { latencyP50Ms }),
      ...(serverCpuMicrosPerOp !== undefined && { serverCpuMicrosPerOp }),
      setupRssBytes,
      ...(warmup && { warmup }),
    };
  } finally {
    await instance.close();
  }
}
