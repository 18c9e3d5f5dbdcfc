// Servers measured at the same moment: every member loaded at once, each by
// its own lanes of the one load client, its server process's CPU per call the
// figure. Interleaved slices (interleave.mjs) still leave each member its own
// quarter seconds, and on a shared VM the neighbours' load changes within one:
// two processes of the same build then differed by up to ~10 % per round. Loaded
// together, every member shares every moment of the neighbours' load, and two
// processes of the same build come within ~1 % of each other over ten rounds
// (bench/PROFILES.md). The members share the server CPU as well, so the
// figures are each server's CPU per call under that contention, not what it
// costs alone: compare members of one round, not rounds of different sets.
import { driveFor } from "./drive.mjs";
import { factoryOf, measureThenClose } from "./measure.mjs";

/**
 * Measures `specs` (async workloads with a server process: `call`,
 * `serverCpu`, `check`, `close`) loaded at once. Members are set up and
 * driven in the order `first` rotates the list to, so no build keeps the
 * first place (set up first, warmed first) over the rounds of a comparison.
 * @param {{ id: string, module: string, factory: string, options?: object, concurrency?: number }[]} specs
 * @param {{ warmupMs: number, windowMs: number, first?: number }} timing
 * @returns {Promise<{ id: string, ops: number, serverCpuMicrosPerOp: number }[]>} in the order of `specs`
 * @throws {Error} when a member cannot be set up or answers something wrong; every member set up is closed
 */
export async function measureConcurrent(specs, { warmupMs, windowMs, first = 0 }) {
  const order = specs.map((_, i) => (i + first) % specs.length);
  const members = new Array(specs.length);
  return measureThenClose(
    members,
    (member) => member.close(),
    () => measureMembers(specs, members, order, warmupMs, windowMs),
  );
}

async function measureMembers(specs, members, order, warmupMs, windowMs) {
  for (const i of order) {
    const spec = specs[i];
    members[i] = await (await factoryOf(spec))(spec.options);
    members[i].check(await members[i].call());
  }
  // Every member driven at once; each one's count lands in its own slot, whatever order they started in.
  const drive = async (durationMs) => {
    const ops = new Array(specs.length);
    await Promise.all(order.map(async (i) => (ops[i] = await driveFor(members[i].call, specs[i].concurrency ?? 1, durationMs))));
    return ops;
  };
  await drive(warmupMs);
  const before = await Promise.all(members.map((member) => member.serverCpu()));
  const ops = await drive(windowMs);
  const after = await Promise.all(members.map((member) => member.serverCpu()));
  return specs.map((spec, i) => {
    if (ops[i] === 0) throw new Error(`${spec.id}: no call completed in ${windowMs} ms`);
    return { id: spec.id, ops: ops[i], serverCpuMicrosPerOp: (after[i] - before[i]) / ops[i] };
  });
}
