// Workloads judged against each other, measured in one worker and one
// window, a slice of each in turn. On a shared machine a disturbance lasts
// seconds: measured one after the other, a floor and the server judged
// against it can land one in a quiet spell and one in a busy one, and their
// ratio swings by half (bench/RESULTS.md of the run before this module). In
// slices of a quarter second taken in turn, a disturbance falls on each
// member's slices alike, so the ratio is read from the same spells.
import { driveAsync, keepAwake, plateauWatch } from "./drive.mjs";
import { factoryOf, figuresOf, measureThenClose } from "./measure.mjs";

/**
 * Measures `specs` (async workloads over HTTP: each starts its own server
 * process) side by side: every one set up and checked, all warmed up to
 * their plateaus in turns, one untimed round of slices, then `windowMs` of
 * each in slices of `interleaveSliceMs`, the members in turn, rotating who
 * goes first; then, for members whose server runs in a process of its own,
 * the same window again with the load client kept awake. Each figure sums
 * that member's slices: calls, time, the worker's CPU and the server
 * process's CPU, asleep and awake.
 * @param {import("../catalog.mjs").Workload[]} specs
 * @param {{ warmup: object, windowMs: number, interleaveSliceMs: number, maxOps: number }} profile
 * @returns {Promise<object[]>} one result per spec, in order, shaped as `measureOnce`'s
 * @throws {Error} when a member cannot be set up or answers something wrong; every member set up is closed
 */
export async function measureInterleaved(specs, profile) {
  const members = [];
  return measureThenClose(
    members,
    (member) => member.instance.close(),
    async () => {
      for (const spec of specs) members.push(await setUp(spec, profile));
      return measureMembers(members, specs, profile);
    },
  );
}

/** One member: its workload set up, with the limits of its slices. */
async function setUp(spec, profile) {
  if (spec.mode !== "async" || spec.fixedOps !== undefined) throw new TypeError(`${spec.id}: only timed async workloads are measured interleaved`);
  const factory = await factoryOf(spec);
  return { spec, instance: await factory(spec.options), limits: { concurrency: spec.concurrency ?? 1, maxOps: profile.maxOps } };
}

async function measureMembers(members, specs, profile) {
  const setupRssBytes = process.memoryUsage().rss;
  for (const member of members) member.instance.check(await member.instance.call());
  await warmUpInTurns(members, profile.warmup);
  const sliceMs = profile.interleaveSliceMs;
  const rounds = Math.max(1, Math.round(profile.windowMs / sliceMs));
  for (const member of members) await driveAsync(member.instance.call, { ...member.limits, durationMs: sliceMs });
  for (const member of members) {
    // No server CPU for a workload whose server shares this process: figuresOf then reports none.
    member.totals = { ops: 0, ms: 0, cpuMicros: 0, serverMicros: member.instance.serverCpu === undefined ? undefined : 0 };
    member.instance.startLatencies?.();
  }
  await timeRounds(members, rounds, sliceMs, "totals");
  for (const member of members) member.latencyP50Ms = member.instance.latencyP50?.();
  // The same window again with the load client kept awake (measure.mjs, awakeWindow), for the members whose server runs apart.
  const served = members.filter((member) => member.totals.serverMicros !== undefined);
  if (served.length > 0) {
    for (const member of served) member.awake = { ops: 0, ms: 0, cpuMicros: 0, serverMicros: 0 };
    const release = keepAwake();
    try {
      await timeRounds(served, rounds, sliceMs, "awake");
    } finally {
      release();
    }
  }
  return members.map(({ spec, totals, awake, latencyP50Ms, warming }) => ({
    ...figuresOf(spec, { ...totals, awake, latencyP50Ms, setupRssBytes, warm: warming.state }),
    interleavedWith: specs.map((other) => other.id).filter((id) => id !== spec.id),
  }));
}

/**
 * Warms every member to its plateau (`plateauWatch`), a slice of each in
 * turn, until all have levelled off: none idles while the others warm up,
 * so none starts its window cold, nor on connections its server closed
 * meanwhile (node:http ends a keep-alive connection idle for 5 s).
 */
async function warmUpInTurns(members, options) {
  for (const member of members) {
    member.warming = plateauWatch(options);
    member.warmingMs = 0;
  }
  while (members.some((member) => !member.warming.done)) {
    for (const member of members) {
      // A member that levelled off keeps its turn, untimed, so it stays as warm as the rest.
      const durationMs = member.warming.done ? options.sliceMs : member.warming.nextSliceMs();
      const slice = await driveAsync(member.instance.call, { ...member.limits, durationMs });
      if (member.warming.done) continue;
      member.warmingMs += slice.ms;
      member.warming.record(slice.ops, slice.perSecond, member.warmingMs);
    }
  }
}

/** `rounds` slices of every member, in turns, who goes first rotating; each adds to the member's `tally`. */
async function timeRounds(members, rounds, sliceMs, tally) {
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < members.length; turn++) await timeSlice(members[(round + turn) % members.length], sliceMs, tally);
  }
}

/** One slice of one member, added to its `tally` (its totals, or its awake totals). */
async function timeSlice(member, sliceMs, tally) {
  const { instance, limits } = member;
  const totals = member[tally];
  const serverBefore = await instance.serverCpu?.();
  const cpuBefore = process.cpuUsage();
  const measured = await driveAsync(instance.call, { ...limits, durationMs: sliceMs });
  const cpu = process.cpuUsage(cpuBefore);
  if (serverBefore !== undefined) totals.serverMicros += (await instance.serverCpu()) - serverBefore;
  totals.ops += measured.ops;
  totals.ms += measured.ms;
  totals.cpuMicros += cpu.user + cpu.system;
}
