// The Redis replay store and broadcaster on a real Redis Cluster (three
// masters with a replica each, started here on 127.0.0.1 with
// `redis-cli --cluster create`): every key of the store under one hash tag
// (one slot per script, MOVED and ASK left to node-redis's createCluster),
// events heard across instances, and a spent token still refused after the
// master holding it is killed and its replica takes over.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedisBroadcaster, connectRedisReplayStore, type ConnectedRedisReplayStore } from "mcp-roundtrip/ext/redis";
import { startCluster, type RedisCluster } from "../../drill/cluster.js";
import { systemPrograms } from "../support/system.js";

const programs = systemPrograms("the Redis Cluster tests", [
  { program: "redis-server", aptPackage: "redis-server" },
  { program: "redis-cli", aptPackage: "redis-tools" },
]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => Date.now() / 1000;
const quiet = { warn() {}, info() {}, error() {}, debug() {} };

/**
 * Waits until every master's replicas hold every write so far (their offset
 * reached the master's): replication is asynchronous, and what a replica has
 * not received a failover loses (docs/operations.md). A fixed sleep lost that
 * race on a loaded machine.
 */
async function replicated(redisCli: string, addresses: string[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const lagging = addresses.some((address) => {
      const info = spawnSync(redisCli, ["-p", address.split(":")[1]!, "INFO", "replication"], { encoding: "utf8" }).stdout ?? "";
      if (!info.includes("role:master")) return false;
      const master = Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? 0);
      const replicas = [...info.matchAll(/slave\d+:[^\r\n]*offset=(\d+)/g)].map((match) => Number(match[1]));
      return replicas.length === 0 || replicas.some((offset) => offset < master);
    });
    if (!lagging) return;
    if (Date.now() > deadline) throw new Error("the cluster's replicas did not catch up with their masters within 15 s");
    await sleep(50);
  }
}

describe.skipIf(programs === undefined)("the Redis integration on a Redis Cluster", () => {
  let cluster: RedisCluster;
  let dir: string;
  let target: { cluster: { rootNodes: { url: string }[] }; logger: typeof quiet };
  let replay: ConnectedRedisReplayStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "mcp-cluster-"));
    cluster = await startCluster(programs!["redis-server"]!, programs!["redis-cli"]!, dir);
    target = { cluster: { rootNodes: cluster.addresses.map((address) => ({ url: `redis://${address}` })) }, logger: quiet };
    replay = await connectRedisReplayStore(target, { prefix: "{drill}:" });
  }, 60_000);
  afterAll(async () => {
    await replay?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a prefix without a hash tag, saying how to write one", async () => {
    await expect(connectRedisReplayStore(target, { prefix: "mcp:replay:" })).rejects.toThrow('use e.g. "{mcp:replay:}"');
  });

  it("claims once, commits, and refuses the spent token", async () => {
    const t = now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => replay.store.claim("cluster-token", t + 60, t, { until: t + 30 })));
    expect(answers.filter((answer) => answer === true)).toHaveLength(1);
    await replay.store.commit("cluster-token", t + 60, t);
    expect(await replay.store.claim("cluster-token", t + 60, now(), { until: now() + 30 })).toBe(false);
  });

  it("carries subscription events from one instance's broadcaster to another's", async () => {
    const one = await connectRedisBroadcaster(target, { channel: "{drill}:events" });
    const two = await connectRedisBroadcaster(target, { channel: "{drill}:events" });
    try {
      const heard = new Promise((resolve) => two.broadcaster.subscribe(resolve));
      await one.broadcaster.publish({ type: "toolsListChanged" });
      expect(await heard).toEqual({ type: "toolsListChanged" });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("after the master holding the tokens is killed and its replica took over, a spent token is still refused", async () => {
    const t = now();
    expect(await replay.store.claim("before-failover", t + 120, t, { until: t + 30 })).toBe(true);
    await replay.store.commit("before-failover", t + 120, t);
    await replicated(programs!["redis-cli"]!, cluster.addresses);
    const faults = cluster.faults();
    await faults.kill();
    let answer: unknown;
    const deadline = Date.now() + 20_000;
    for (;;) {
      answer = await replay.store.claim("before-failover", t + 120, now(), { until: now() + 30 }).catch((error: Error) => error);
      if (typeof answer === "boolean" || Date.now() > deadline) break;
      await sleep(200);
    }
    expect(answer).toBe(false);
    expect(await replay.store.claim("after-failover", now() + 60, now(), { until: now() + 30 })).toBe(true);
    await faults.revive();
  }, 40_000);
});
