// The fault schedule: a seeded order of fault kinds, started one after the
// other a few seconds apart while the workload runs, so several overlap.
// Faults that touch the same instance (or Redis) take its lock first: an
// instance is never killed while it is being restarted.
import { writeFileSync } from "node:fs";
import type { Fleet } from "../examples/fleet/fleet.js";
import type { Metrics } from "./metrics.js";
import type { FaultProxy } from "./proxy.js";
import { Random } from "./random.js";
import { startSlowReaders } from "./slow-readers.js";
import { instanceStats } from "./stats.js";

/** Every kind of fault the drill injects. */
export const FAULT_KINDS = [
  "instance SIGKILL",
  "rolling restart",
  "key rotation",
  "Redis SIGKILL",
  "Redis SIGSTOP 5 s",
  "slow readers",
  "proxy latency+resets",
] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

/** What the faults act on. */
export interface FaultTargets {
  fleet: Fleet;
  proxy: FaultProxy;
  base: string;
  keysFile: string;
  /** The rotation's three rings, in order: OLD,NEW / NEW,OLD / NEW (then NEW becomes the OLD of the next rotation). */
  rotation: () => [string, string, string];
  /** ttl + clock skew: the wait between phases 2 and 3. */
  phaseWaitMs: number;
  /** Redis managed elsewhere (a Cluster): the Redis faults act through these instead of the fleet. */
  redis?: { kill(): Promise<void>; revive(): Promise<void>; signal(signal: NodeJS.Signals): void };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lock per resource (an instance's index, "redis"): faults on one resource run one at a time. */
class Locks {
  readonly #tails = new Map<string, Promise<void>>();
  async with<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    let done: () => void = () => {};
    this.#tails.set(key, new Promise<void>((resolve) => (done = resolve)));
    await before;
    try {
      return await work();
    } finally {
      done();
    }
  }
}

async function inject(kind: FaultKind, targets: FaultTargets, metrics: Metrics, random: Random, locks: Locks): Promise<void> {
  const { fleet } = targets;
  const redis = targets.redis ?? { kill: () => fleet.killRedis(), revive: () => fleet.reviveRedis(), signal: (signal: NodeJS.Signals) => fleet.signalRedis(signal) };
  const restartAll = async () => {
    for (const instance of fleet.instances) await locks.with(String(instance.index), () => fleet.restart(instance.index));
  };
  const instance = random.int(0, fleet.instances.length - 1);
  await locks.with(kind === "key rotation" || kind === "rolling restart" ? "rolling" : kind, async () => {
    const end = metrics.fault(kind);
    try {
      switch (kind) {
        case "instance SIGKILL":
          await locks.with(String(instance), async () => {
            await fleet.kill(instance);
            await sleep(500);
            await fleet.revive(instance);
          });
          break;
        case "rolling restart":
          await restartAll();
          break;
        case "key rotation": {
          const [learn, mint, forget] = targets.rotation();
          writeFileSync(targets.keysFile, learn);
          await restartAll();
          writeFileSync(targets.keysFile, mint);
          await restartAll();
          await sleep(targets.phaseWaitMs);
          writeFileSync(targets.keysFile, forget);
          await restartAll();
          break;
        }
        case "Redis SIGKILL":
          await locks.with("redis", async () => {
            await redis.kill();
            await sleep(1_000);
            await redis.revive();
          });
          break;
        case "Redis SIGSTOP 5 s":
          await locks.with("redis", async () => {
            redis.signal("SIGSTOP");
            await sleep(5_000);
            redis.signal("SIGCONT");
          });
          break;
        case "slow readers": {
          const readers = await startSlowReaders(targets.base, 20);
          await sleep(3_000);
          // Ten unread floods of 4 MiB: an instance that held them would show it here.
          const peak = await Promise.all(fleet.instances.map((instance) => instanceStats(instance.port)));
          metrics.notes.push(
            `slow readers: RSS while 10 floods of 4 MiB went unread ${peak.map((figures) => (figures ? `${(figures.rss / 1048576).toFixed(0)} MB` : "?")).join(", ")}`,
          );
          await sleep(3_000);
          await readers.close();
          break;
        }
        case "proxy latency+resets":
          targets.proxy.faults.latencyMs = 40;
          targets.proxy.faults.resetEvery = 40;
          await sleep(8_000);
          targets.proxy.faults.latencyMs = 0;
          targets.proxy.faults.resetEvery = 0;
          break;
      }
    } finally {
      end();
    }
  });
}

/** A running schedule: `stop()` starts no more faults and resolves once those started have ended. */
export interface FaultSchedule {
  started(): number;
  stop(): Promise<void>;
}

/**
 * Starts faults every `gapMs` (± half, seeded) from `delayMs` on: first each kind once in a seeded order, then kinds
 * drawn at random, until `stop()` or `maxFaults`.
 */
export function startFaults(targets: FaultTargets, metrics: Metrics, seed: number, options: { delayMs: number; gapMs: number; maxFaults: number }): FaultSchedule {
  const random = new Random(seed ^ 0x5eed);
  const order = [...FAULT_KINDS].sort(() => random.next() - 0.5);
  const locks = new Locks();
  const running: Promise<void>[] = [];
  let stopped = false;
  let wake: () => void = () => {};
  const loop = (async () => {
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, options.delayMs);
    });
    for (let n = 0; !stopped && n < options.maxFaults; n++) {
      const kind = order[n] ?? FAULT_KINDS[random.int(0, FAULT_KINDS.length - 1)]!;
      running.push(
        inject(kind, targets, metrics, random, locks).catch((error: unknown) => {
          metrics.problems.push(`fault ${kind} failed: ${(error as Error).message}`);
        }),
      );
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, options.gapMs * (0.5 + random.next()));
      });
    }
  })();
  return {
    started: () => running.length,
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.all(running);
    },
  };
}
