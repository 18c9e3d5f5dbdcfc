// One repetition of one workload: set it up, check its first result, warm
// it up, time one window, close it. Used by the worker process (one
// repetition per process) and by the in-process smoke run.
import { driveAsync, driveSync } from "./drive.mjs";

/**
 * @param {import("../catalog.mjs").Workload} spec
 * @param {{ warmupMs: number, windowMs: number, maxOps: number, pendingCount: number, pendingWarmup: number }} profile
 * @returns {Promise<{ id: string, value: number, ops?: number, ms?: number }>}
 * @throws {Error} when the workload cannot be set up or answers something wrong.
 */
export async function measureOnce(spec, runProfile) {
  const profile = { ...runProfile, windowMs: runProfile.windowMs * (spec.windowScale ?? 1) };
  const module = await import(spec.module);
  const factory = module[spec.factory];
  if (typeof factory !== "function") {
    throw new Error(`${spec.module} exports no function "${spec.factory}" for workload ${spec.id}`);
  }
  if (spec.mode === "custom") {
    const outcome = await factory({ ...spec.options, count: profile.pendingCount, warmup: profile.pendingWarmup });
    return { id: spec.id, value: outcome.heapGrowthBytes, ...outcome };
  }
  const instance = await factory(spec.options);
  try {
    const limits = { concurrency: spec.concurrency ?? 1, maxOps: profile.maxOps };
    let measured;
    let cpu;
    if (spec.mode === "sync") {
      instance.check(instance.callSync());
      driveSync(instance.callSync, { ...limits, durationMs: profile.warmupMs });
      const cpuBefore = process.cpuUsage();
      measured = driveSync(instance.callSync, { ...limits, durationMs: profile.windowMs });
      cpu = process.cpuUsage(cpuBefore);
    } else {
      instance.check(await instance.call());
      await driveAsync(instance.call, { ...limits, durationMs: profile.warmupMs });
      const cpuBefore = process.cpuUsage();
      measured = await driveAsync(instance.call, { ...limits, durationMs: profile.windowMs });
      cpu = process.cpuUsage(cpuBefore);
    }
    // Process CPU time (every thread, so work handed to a thread pool counts
    // too): steadier than wall-clock when other processes share the cores.
    const cpuMicrosPerOp = (cpu.user + cpu.system) / Math.max(1, measured.ops);
    return { id: spec.id, value: measured.perSecond, ops: measured.ops, ms: measured.ms, cpuMicrosPerOp };
  } finally {
    await instance.close();
  }
}
