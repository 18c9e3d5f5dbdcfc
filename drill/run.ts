// One drill run: Redis (or a Redis Cluster), three instances, a fault proxy
// in front of the third, nginx in front of all, on 127.0.0.1; the seeded
// workload, the chaos client and the fault schedule; then the invariants.
// Everything started here is stopped here, whatever happens.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Fleet } from "../examples/fleet/fleet.js";
import { runChaos, type ChaosFigures } from "./chaos.js";
import { startCluster, type RedisCluster } from "./cluster.js";
import { startFaults } from "./faults.js";
import { Metrics, type FaultWindow, type PhaseFigures, type Second } from "./metrics.js";
import { startProxy, type FaultProxy } from "./proxy.js";
import { Random } from "./random.js";
import { instanceStats, withinMargin, type InstanceStats } from "./stats.js";
import { runWorkload } from "./workload.js";

/** Where the programs are. */
export interface DrillPrograms {
  nginx: string;
  redisServer: string;
  /** Needed for `cluster: true`. */
  redisCli?: string;
  /** The built instance script (dist/drill/instance.js). */
  instanceScript: string;
}

/** How to run the drill. */
export interface DrillOptions {
  exchanges: number;
  seed: number;
  users: number;
  thinkMs: number;
  /** Inject faults (default true). */
  faults?: boolean;
  /** Milliseconds between fault starts (0.5-1.5x, seeded). */
  faultGapMs?: number;
  /** How many faults to inject (the first seven are one of each kind; default 7). */
  faultCount?: number;
  /** Run against a Redis Cluster of three masters with a replica each. */
  cluster?: boolean;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Stops the workload early (the run still stops everything it started and reports). */
  signal?: AbortSignal;
}

/** What a run found. */
export interface DrillReport {
  exchanges: number;
  wallMs: number;
  replaysAccepted: number;
  wrong: number;
  lost: number;
  unexpectedExits: string[];
  retries: Record<string, number>;
  statuses: Record<number, number>;
  byKind: Record<string, number>;
  phases: PhaseFigures[];
  seconds: Second[];
  faults: FaultWindow[];
  chaos: ChaosFigures;
  memory: { warm: (InstanceStats | undefined)[]; after: (InstanceStats | undefined)[]; withinMargin: boolean };
  problems: string[];
  notes: string[];
  options: DrillOptions;
  /** The run's last line. */
  line: string;
}

const TTL = 10;
const SKEW = 1;
const key = () => `base64url:${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the drill once and returns its figures (`line` is the verdict). */
export async function runDrill(programs: DrillPrograms, options: DrillOptions): Promise<DrillReport> {
  const log = options.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), "mcp-drill-"));
  const keysFile = join(dir, "keys");
  let current = key();
  writeFileSync(keysFile, current);
  let proxy: FaultProxy | undefined;
  let fleet: Fleet | undefined;
  let cluster: RedisCluster | undefined;
  const metrics = new Metrics();
  const statuses: Record<number, number> = {};
  try {
    if (options.cluster) cluster = await startCluster(programs.redisServer, programs.redisCli ?? "redis-cli", dir);
    proxy = await startProxy(() => fleet!.instances[2]!.port);
    fleet = await Fleet.start(
      { nginx: programs.nginx, redisServer: programs.redisServer, instanceScript: programs.instanceScript },
      {
        keys: current,
        redis: !options.cluster,
        upstreamPorts: { 2: proxy.port },
        env: {
          DRILL_KEYS_FILE: keysFile,
          FLEET_TTL_SECONDS: String(TTL),
          FLEET_CLOCK_SKEW_SECONDS: String(SKEW),
          // Longer than a Redis outage the drill rides out (a 5 s freeze, a Cluster failover): a commit that failed
          // meanwhile is retried, and only the lease holds the token until it lands.
          FLEET_REPLAY_LEASE_SECONDS: "15",
          ...(cluster === undefined ? {} : { DRILL_REDIS_CLUSTER: cluster.addresses.join(",") }),
        },
      },
    );
    const live = fleet;
    log(`drill: fleet up at ${live.base} (instances ${live.instances.map((instance) => instance.port).join(", ")}, proxy ${proxy.port} → instance 2)`);
    let done = false;
    const redisRestarts = () => metrics.faults.filter((fault) => fault.kind === "Redis SIGKILL").length;
    const chaos = runChaos(live.base, new Random(options.seed ^ 0xc4a05), () => done, redisRestarts);
    const workload = runWorkload(
      { base: live.base, users: options.users, exchanges: options.exchanges, seed: options.seed, thinkMs: options.thinkMs, faultGraceMs: 5_000 },
      metrics,
      (status) => void (statuses[status] = (statuses[status] ?? 0) + 1),
      () => options.signal?.aborted === true,
    ).finally(() => (done = true));
    // Warm-up: calm until a twentieth of the run (at most 1,000 exchanges) is over; its figures are the baseline.
    const warmUntil = Math.min(1_000, Math.ceil(options.exchanges / 20));
    while (metrics.exchanges < warmUntil && !done) await sleep(100);
    const warm = await Promise.all(live.instances.map((instance) => instanceStats(instance.port)));
    log(`drill: warm after ${metrics.exchanges} exchanges (${(metrics.now() / 1000).toFixed(1)} s); faults start`);
    const faults =
      options.faults === false
        ? undefined
        : startFaults(
            {
              fleet: live,
              proxy,
              base: live.base,
              keysFile,
              rotation: () => {
                const next = key();
                const phases: [string, string, string] = [`${current},${next}`, `${next},${current}`, next];
                current = next;
                return phases;
              },
              phaseWaitMs: (TTL + SKEW) * 1000 + 200,
              ...(cluster === undefined ? {} : { redis: cluster.faults() }),
            },
            metrics,
            options.seed,
            { delayMs: 0, gapMs: options.faultGapMs ?? 4_000, maxFaults: options.faultCount ?? 7 },
          );
    const progress = setInterval(() => log(`drill: ${metrics.exchanges} exchanges, ${metrics.faults.length} faults so far`), 10_000);
    await workload.finally(() => clearInterval(progress));
    await faults?.stop();
    const chaosFigures = await chaos;
    const wallMs = metrics.now();
    // Idle keep-alive connections from nginx close after 4 s: wait them out before counting handles.
    await sleep(5_000);
    const after = await Promise.all(live.instances.map((instance) => instanceStats(instance.port)));
    const unexpectedExits = live.unexpectedExits();
    const memoryOk = warm.every((figures, index) => figures !== undefined && after[index] !== undefined && withinMargin(figures, after[index]!));
    const line = `drill: ${metrics.exchanges} exchanges, ${chaosFigures.accepted} replays accepted, ${metrics.wrong} wrong, ${metrics.lost} lost, ${unexpectedExits.length} unexpected exits`;
    return {
      exchanges: metrics.exchanges,
      wallMs,
      replaysAccepted: chaosFigures.accepted,
      wrong: metrics.wrong,
      lost: metrics.lost,
      unexpectedExits,
      retries: metrics.retries,
      statuses,
      byKind: metrics.byKind,
      phases: metrics.phases(),
      seconds: metrics.seconds(),
      faults: metrics.faults,
      chaos: chaosFigures,
      memory: { warm, after, withinMargin: memoryOk },
      problems: metrics.problems,
      notes: metrics.notes,
      options,
      line,
    };
  } finally {
    await fleet?.stop().catch(() => {});
    await proxy?.close().catch(() => {});
    await cluster?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
