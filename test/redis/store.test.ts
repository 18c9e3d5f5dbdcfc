// RedisReplayStore against a real redis-server (started here on 127.0.0.1,
// nothing persisted): the ReplayStore contract (atomic claim, commit that
// outlives a lapsed lease, release that never drops a commit, the per-owner
// quota) and one-time tokens through RequestStateSecurity.
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestStateSecurity, InvalidRequestState } from "mcp-roundtrip/server";
import { connectRedisReplayStore, RedisReplayStore } from "mcp-roundtrip/ext/redis";
import { startRedis, type Daemon } from "../support/daemons.js";
import { systemPrograms } from "../support/system.js";

const programs = systemPrograms("the Redis replay store tests", [{ program: "redis-server", aptPackage: "redis-server" }]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => Date.now() / 1000;

describe.skipIf(programs === undefined)("RedisReplayStore on a real redis-server", () => {
  let redis: Daemon;
  let client: RedisClientType;
  let store: RedisReplayStore;
  let n = 0;
  const id = () => `token-${++n}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    redis = await startRedis(programs!["redis-server"]!);
    client = createClient({ url: `redis://127.0.0.1:${redis.port}` }) as RedisClientType;
    await client.connect();
    store = new RedisReplayStore(client, { prefix: "test:" });
  }, 20_000);
  afterAll(async () => {
    await client?.close();
    await redis?.stop();
  });

  it("claims once: of many concurrent claims exactly one wins", async () => {
    const token = id();
    const t = now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => store.claim(token, t + 60, t, { until: t + 30 })));
    expect(answers.filter((answer) => answer === true)).toHaveLength(1);
    expect(answers.filter((answer) => answer === false)).toHaveLength(49);
  });

  it("release gives a lease back; commit makes it spent; release never drops a commit", async () => {
    const token = id();
    const t = now();
    expect(await store.claim(token, t + 60, t, { until: t + 30 })).toBe(true);
    await store.release(token);
    expect(await store.claim(token, t + 60, t, { until: t + 30 })).toBe(true);
    await store.commit(token, t + 60, t);
    await store.release(token);
    expect(await store.claim(token, t + 60, t, { until: t + 30 })).toBe(false);
  });

  it("a lease nobody settles lapses; a commit after the lapse still spends the token until it expires", async () => {
    const token = id();
    const t = now();
    expect(await store.claim(token, t + 60, t, { until: t + 0.2 })).toBe(true);
    expect(await store.claim(token, t + 60, t, { until: t + 0.2 })).toBe(false);
    await sleep(350);
    expect(await store.claim(token, t + 60, now(), { until: now() + 0.2 })).toBe(true); // lapsed: taken again
    const late = id();
    expect(await store.claim(late, t + 60, t, { until: t + 0.1 })).toBe(true);
    await sleep(250);
    await store.commit(late, now() + 0.5, now());
    expect(await store.claim(late, now() + 0.5, now(), { until: now() + 0.2 })).toBe(false);
    await sleep(700);
    expect(await store.claim(late, now() + 60, now(), { until: now() + 30 })).toBe(true); // forgotten after it expired
  });

  it("without a lease a claim is final", async () => {
    const token = id();
    const t = now();
    expect(await store.claim(token, t + 60, t)).toBe(true);
    await store.release(token);
    expect(await store.claim(token, t + 60, t)).toBe(false);
  });

  it("refuses an owner over its quota, and counts released tokens out", async () => {
    const small = new RedisReplayStore(client, { prefix: `quota-${n}:`, maxEntriesPerOwner: 2 });
    const t = now();
    const lease = { until: t + 30, owner: "alice" };
    expect(await small.claim("a", t + 60, t, lease)).toBe(true);
    expect(await small.claim("b", t + 60, t, lease)).toBe(true);
    expect(await small.claim("c", t + 60, t, lease)).toBe("quota_exceeded");
    expect(await small.claim("c", t + 60, t, { until: t + 30, owner: "bob" })).toBe(true);
    await small.release("a");
    expect(await small.claim("c2", t + 60, t, lease)).toBe(true);
  });

  it("reloads its scripts after SCRIPT FLUSH (a restarted Redis)", async () => {
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    const t = now();
    expect(await store.claim(id(), t + 60, t, { until: t + 30 })).toBe(true);
  });

  it("makes RequestStateSecurity accept each token once across instances", async () => {
    const connected = await connectRedisReplayStore(`redis://127.0.0.1:${redis.port}`, { prefix: "fleet:" });
    const key = new Uint8Array(32).fill(7);
    const quiet = { warn: () => {} };
    const a = new RequestStateSecurity({ keys: [key] }, { audience: "redis-test", replay: store, logger: quiet });
    const b = new RequestStateSecurity({ keys: [key] }, { audience: "redis-test", replay: connected.store, logger: quiet });
    const bSamePrefix = new RequestStateSecurity(
      { keys: [key] },
      { audience: "redis-test", replay: new RedisReplayStore(client, { prefix: "fleet:" }), logger: quiet },
    );
    const binding = { method: "tools/call", target: "deploy" };
    const token = await a.mint({ ...binding, state: "once" });
    await expect(b.verify(token, binding)).resolves.toBe("once");
    await expect(bSamePrefix.verify(token, binding)).rejects.toBeInstanceOf(InvalidRequestState);
    // A handler that failed first releases the token, so the retry on another instance is accepted.
    const second = await a.mint({ ...binding, state: "retry" });
    const held = await b.verifyOnce(second, binding);
    await held.release();
    await expect(bSamePrefix.verify(second, binding)).resolves.toBe("retry");
    await connected.close();
  });

  it("a Redis that lost its data (FLUSHALL, or a restart without persistence) refuses every token issued before: no replay", async () => {
    const key = new Uint8Array(32).fill(9);
    const reasons: string[] = [];
    const logger = { warn: (_message: string, fields?: { reason?: string }) => void reasons.push(fields?.reason ?? "") };
    const epochStore = new RedisReplayStore(client, { prefix: "epoch-test:" });
    await epochStore.ready();
    const security = new RequestStateSecurity({ keys: [key] }, { audience: "redis-epoch", replay: epochStore, logger });
    const binding = { method: "tools/call", target: "pay" };
    const spent = await security.mint({ ...binding, state: "spent" });
    const unspent = await security.mint({ ...binding, state: "unspent" });
    await expect(security.verify(spent, binding)).resolves.toBe("spent");
    await expect(security.verify(spent, binding)).rejects.toBeInstanceOf(InvalidRequestState); // replayed
    const before = epochStore.rememberedSince();
    await sleep(20);
    await client.sendCommand(["FLUSHALL"]);
    // Redis forgot that "spent" was spent: still refused, because it was issued before the new epoch; so is "unspent".
    await expect(security.verify(spent, binding)).rejects.toBeInstanceOf(InvalidRequestState);
    await expect(security.verify(unspent, binding)).rejects.toBeInstanceOf(InvalidRequestState);
    expect(epochStore.rememberedSince()).toBeGreaterThan(before!);
    expect(await client.sendCommand(["GET", "epoch-test:epoch"])).toBe(String(epochStore.rememberedSince()));
    // What is minted from now on is accepted once, as before.
    await sleep(20);
    const fresh = await security.mint({ ...binding, state: "fresh" });
    await expect(security.verify(fresh, binding)).resolves.toBe("fresh");
    await expect(security.verify(fresh, binding)).rejects.toBeInstanceOf(InvalidRequestState);
    expect(reasons).toEqual(["replayed", "replay_store_reset", "replay_store_reset", "replayed"]);
    // Another instance started on the same data keeps the epoch the first one set (SET NX), rather than moving it.
    const other = new RedisReplayStore(client, { prefix: "epoch-test:" });
    await other.ready(Date.now() / 1000 + 100);
    expect(other.rememberedSince()).toBe(epochStore.rememberedSince());
  });
});
