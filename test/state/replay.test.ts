import { describe, expect, it } from "vitest";
import { MemoryReplayStore, RequestStateSecurity, RequestStateUnavailable } from "../../runtime/state/index.js";
import { BACKENDS, recordingLogger, rejectionOf, SECRET } from "./helpers.js";

const call = { method: "tools/call", target: "pay", arguments: { amount: 10 } };

describe.each(BACKENDS)("one-time use on the %s backend", (backend) => {
  it("a token accepted once is rejected the second time, within its ttl", async () => {
    const logger = recordingLogger();
    let clock = 5000;
    const security = new RequestStateSecurity(
      { keys: [SECRET] },
      { crypto: backend, replay: new MemoryReplayStore({ rememberedSince: 0 }), logger, now: () => clock },
    );
    const token = await security.mint({ ...call, state: "charge-once" });
    await expect(security.verify(token, call)).resolves.toBe("charge-once");
    clock += 1;
    await rejectionOf(security.verify(token, call));
    expect(logger.rejections.map((r) => r.reason)).toEqual(["replayed"]);
    // Another token for the same call is its own, fresh token.
    const next = await security.mint({ ...call, state: "charge-once" });
    await expect(security.verify(next, call)).resolves.toBe("charge-once");
  });

  it("a rejected token does not use up its single use", async () => {
    const security = new RequestStateSecurity({ keys: [SECRET] }, { crypto: backend, replay: new MemoryReplayStore(), logger: recordingLogger() });
    const token = await security.mint({ ...call, state: "x" });
    await rejectionOf(security.verify(token, { ...call, arguments: { amount: 1000 } }));
    await expect(security.verify(token, call)).resolves.toBe("x");
  });

  it("without a store a token may be verified again (the spec leaves single use to the server)", async () => {
    const security = new RequestStateSecurity({ keys: [SECRET] }, { crypto: backend });
    const token = await security.mint({ ...call, state: "x" });
    await security.verify(token, call);
    await expect(security.verify(token, call)).resolves.toBe("x");
  });
});

describe("replay stores", () => {
  it("the store sees a digest of the token, never the token", async () => {
    const ids: string[] = [];
    const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: { claim: (id) => (ids.push(id), true) } });
    const token = await security.mint({ ...call, state: "x" });
    await security.verify(token, call);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(token).not.toContain(ids[0]);
  });

  it("a failing store fails closed: an unreachable one as retryable (RequestStateUnavailable), a confused one as replayed", async () => {
    const logger = recordingLogger();
    for (const claim of [
      () => {
        throw new Error("redis down");
      },
      async () => {
        throw new Error("redis down");
      },
    ]) {
      const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: { claim }, logger });
      await expect(security.verify(await security.mint({ ...call, state: "x" }), call)).rejects.toBeInstanceOf(RequestStateUnavailable);
    }
    const confused = new RequestStateSecurity({ keys: [SECRET] }, { replay: { claim: () => "yes" as unknown as boolean }, logger });
    await rejectionOf(confused.verify(await confused.mint({ ...call, state: "x" }), call));
    expect(logger.rejections.map((r) => r.reason)).toEqual(["replay_store_error", "replay_store_error", "replayed"]);
  });

  it("a store whose memory began after a token was issued refuses it (replay_store_reset), even on its first claim", async () => {
    let clock = 1_000;
    const logger = recordingLogger();
    const before = new RequestStateSecurity({ keys: [SECRET] }, { replay: new MemoryReplayStore({ rememberedSince: 0 }), logger, now: () => clock });
    const token = await before.mint({ ...call, state: "x" });
    await expect(before.verify(token, call)).resolves.toBe("x"); // spent before the "restart"
    clock += 10;
    // The process restarts with the same key ring: a fresh memory, which cannot know the token was spent.
    const after = new RequestStateSecurity({ keys: [SECRET] }, { replay: new MemoryReplayStore({ rememberedSince: clock }), logger, now: () => clock });
    await rejectionOf(after.verify(token, call));
    const fresh = await after.mint({ ...call, state: "y" });
    await expect(after.verify(fresh, call)).resolves.toBe("y");
    const broken = new RequestStateSecurity(
      { keys: [SECRET] },
      {
        replay: {
          claim: () => true,
          rememberedSince: () => {
            throw new Error("epoch unreadable");
          },
        },
        logger,
        now: () => clock,
      },
    );
    await expect(broken.verify(await broken.mint({ ...call, state: "z" }), call)).rejects.toBeInstanceOf(RequestStateUnavailable);
    expect(logger.rejections.map((r) => r.reason)).toEqual(["replay_store_reset", "replay_store_error"]);
    expect(() => new MemoryReplayStore({ rememberedSince: Number.NaN })).toThrow(/"rememberedSince" expected seconds since the epoch, got NaN/);
  });

  it("MemoryReplayStore forgets expired tokens and refuses to overflow", () => {
    const store = new MemoryReplayStore({ maxEntries: 2000 });
    for (let i = 0; i < 2000; i++) expect(store.claim(`t${i}`, 100, 0)).toBe(true);
    expect(store.claim("t5", 100, 50)).toBe(false);
    expect(() => store.claim("overflow", 200, 50)).toThrow(/full/);
    // Once the earlier tokens expire, there is room again.
    expect(store.claim("later", 300, 150)).toBe(true);
    expect(store.size).toBeLessThan(2000);
    // An expired id may be claimed again: its token can no longer verify anyway.
    expect(store.claim("t5", 400, 150)).toBe(true);
  });

  it("MemoryReplayStore validates its options", () => {
    expect(() => new MemoryReplayStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new MemoryReplayStore({ maxEntries: 1.5 })).toThrow(RangeError);
  });
});
