// One-time tokens as leases: held while the request runs, spent once it produced a result, given
// back when it failed first, lapsing when nobody settles them; per-principal quotas; the window.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Client, type ElicitResult } from "mcp-roundtrip/client";
import { inputRequired, McpServer } from "mcp-roundtrip/server";
import { MemoryReplayStore, RequestStateSecurity } from "../../runtime/state/index.js";
import { recordingLogger, rejectionOf, SECRET } from "./helpers.js";

const call = { method: "tools/call", target: "pay", arguments: { amount: 10 } };

describe("verifyOnce: a lease, committed or released by the request", () => {
  it("a released token is accepted again; a committed one is replayed", async () => {
    const logger = recordingLogger();
    const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: new MemoryReplayStore(), logger });
    const token = await security.mint({ ...call, state: "charge" });
    const first = await security.verifyOnce(token, call);
    expect(first.state).toBe("charge");
    await rejectionOf(security.verifyOnce(token, call)); // held by the first request
    await first.release();
    const second = await security.verifyOnce(token, call);
    await second.commit();
    await rejectionOf(security.verifyOnce(token, call));
    expect(logger.rejections.map((r) => r.reason)).toEqual(["replayed", "replayed"]);
  });

  it("a lease nobody settles (the instance died) lapses after replayLeaseSeconds", async () => {
    let clock = 1_000;
    const security = new RequestStateSecurity(
      { keys: [SECRET] },
      // The fake clock starts at 1,000 s: the store's memory is said to start there too.
      { replay: new MemoryReplayStore({ rememberedSince: 0 }), replayLeaseSeconds: 5, now: () => clock, logger: recordingLogger() },
    );
    const token = await security.mint({ ...call, state: "x" });
    await security.verifyOnce(token, call); // never settled
    clock += 4;
    await rejectionOf(security.verifyOnce(token, call));
    clock += 2;
    await expect(security.verifyOnce(token, call)).resolves.toMatchObject({ state: "x" });
  });

  it("concurrent duplicates get exactly one success", async () => {
    for (const copies of [20, 200]) {
      const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: new MemoryReplayStore(), logger: recordingLogger() });
      const token = await security.mint({ ...call, state: "once" });
      const outcomes = await Promise.allSettled(Array.from({ length: copies }, () => security.verify(token, call)));
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    }
  });

  it("settling twice is harmless, and a commit after the lease lapsed still spends the token", async () => {
    let clock = 1_000;
    const store = new MemoryReplayStore({ rememberedSince: 0 });
    const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: store, replayLeaseSeconds: 1, now: () => clock, logger: recordingLogger() });
    const token = await security.mint({ ...call, state: "x" });
    const use = await security.verifyOnce(token, call);
    clock += 5; // the lease lapsed while the handler ran long
    await use.commit();
    await use.release(); // ignored: already settled
    await rejectionOf(security.verifyOnce(token, call));
  });
});

describe("the request-state boundary settles the lease with the handler's outcome", () => {
  function payments(failures: number) {
    let left = failures;
    const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: new MemoryReplayStore(), audience: "payments", logger: recordingLogger() });
    const mcp = new McpServer({ name: "payments", version: "1.0.0" }, { requestStateSecurity: security, logger: { warn() {}, error() {} } });
    mcp.tool("pay", { inputSchema: { type: "object" } }, (_args, ctx) => {
      if (ctx.requestState === undefined) {
        return inputRequired({
          inputRequests: { ok: { method: "elicitation/create", params: { message: "Pay?", requestedSchema: { type: "object", properties: {} } } } },
          requestState: "quote-1",
        });
      }
      if (left-- > 0) throw new Error("payment gateway timed out"); // transient: the retry must be allowed
      return { content: [{ type: "text", text: `paid (${ctx.requestState})` }] };
    });
    return mcp;
  }
  const accept = (): ElicitResult => ({ action: "accept", content: {} });

  it("a handler that throws before producing a result leaves the token usable for the retry", async () => {
    const client = await Client.connect(payments(2), { onElicit: accept });
    const first = await client.session.callTool("pay", {}, { allowInputRequired: true });
    const retry = () =>
      client.session.callTool(
        "pay",
        {},
        { allowInputRequired: true, inputResponses: { ok: accept() }, requestState: (first as { requestState: string }).requestState },
      );
    await expect(retry()).rejects.toMatchObject({ code: -32603 });
    await expect(retry()).rejects.toMatchObject({ code: -32603 });
    await expect(retry()).resolves.toMatchObject({ content: [{ type: "text", text: "paid (quote-1)" }] });
    // Once a result went out the token is spent.
    await expect(retry()).rejects.toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
  });
});

describe("MemoryReplayStore", () => {
  it("gives each owner a quota, so one client cannot lock out the others", async () => {
    const logger = recordingLogger();
    const security = new RequestStateSecurity({ keys: [SECRET] }, { replay: new MemoryReplayStore({ maxEntriesPerOwner: 3 }), logger });
    const mallory = { ...call, principal: "mallory" };
    for (let i = 0; i < 3; i++) await security.verify(await security.mint({ ...mallory, state: `m${i}` }), mallory);
    await rejectionOf(security.verify(await security.mint({ ...mallory, state: "m3" }), mallory));
    expect(logger.rejections.at(-1)?.reason).toBe("replay_quota_exceeded");
    const alice = { ...call, principal: "alice" };
    await expect(security.verify(await security.mint({ ...alice, state: "a" }), alice)).resolves.toBe("a");
  });

  it("drops entries as the clock passes them, and frees their owner's quota", () => {
    const store = new MemoryReplayStore({ maxEntries: 10, maxEntriesPerOwner: 5 });
    for (let i = 0; i < 5; i++) expect(store.claim(`a${i}`, 100, 0, { until: 10, owner: "a" })).toBe(true);
    expect(store.claim("a5", 100, 0, { until: 10, owner: "a" })).toBe("quota_exceeded");
    for (let i = 0; i < 5; i++) store.commit(`a${i}`, 100, 1);
    expect(store.claim("later", 200, 100, { until: 110, owner: "a" })).toBe(true);
    expect(store.size).toBe(1);
  });

  it("behaves like a plain map of live entries (property test against a model)", () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("claim" as const),
        id: fc.integer({ min: 0, max: 5 }),
        lease: fc.integer({ min: 1, max: 5 }),
        ttl: fc.integer({ min: 1, max: 20 }),
      }),
      fc.record({ kind: fc.constant("commit" as const), id: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant("release" as const), id: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant("tick" as const), by: fc.integer({ min: 1, max: 4 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const store = new MemoryReplayStore();
        const model = new Map<number, { until: number; expiresAt: number; committed: boolean }>();
        let now = 0;
        for (const step of ops) {
          if (step.kind === "tick") {
            now += step.by;
            continue;
          }
          const live = model.get(step.id);
          const alive = live !== undefined && live.until > now;
          if (step.kind === "claim") {
            const expiresAt = now + step.ttl;
            const got = store.claim(String(step.id), expiresAt, now, { until: now + step.lease });
            expect(got).toBe(!alive);
            if (!alive) model.set(step.id, { until: Math.min(now + step.lease, expiresAt), expiresAt, committed: false });
          } else if (step.kind === "commit") {
            if (alive) {
              store.commit(String(step.id), live.expiresAt, now);
              model.set(step.id, { ...live, until: live.expiresAt, committed: true });
            }
          } else if (alive && !live.committed) {
            store.release(String(step.id));
            model.delete(step.id);
          }
        }
      }),
    );
  });
});

describe("the acceptance window", () => {
  const at = (clock: { now: number }, options: { ttl?: number; clockSkewSeconds?: number } = {}) =>
    new RequestStateSecurity({ keys: [SECRET] }, { ...options, now: () => clock.now, logger: recordingLogger() });

  it("lowering the ttl shortens tokens already issued", async () => {
    const clock = { now: 10_000 };
    const token = await at(clock, { ttl: 600 }).mint({ ...call, state: "x" });
    clock.now += 200;
    await expect(at(clock, { ttl: 600 }).verify(token, call)).resolves.toBe("x");
    await rejectionOf(at(clock, { ttl: 100 }).verify(token, call)); // iat + 100 + 60 s skew < now
  });

  it("tolerates the same clock skew both ways", async () => {
    const clock = { now: 10_000 };
    const token = await at(clock, { ttl: 60 }).mint({ ...call, state: "x" });
    const verifier = at(clock, { ttl: 60, clockSkewSeconds: 30 });
    clock.now = 10_000 - 30; // the verifier's clock runs 30 s behind the minter's
    await expect(verifier.verify(token, call)).resolves.toBe("x");
    clock.now = 10_000 - 31;
    await rejectionOf(verifier.verify(token, call));
    clock.now = 10_000 + 60 + 29.999; // and 30 s ahead, at the other end
    await expect(verifier.verify(token, call)).resolves.toBe("x");
    clock.now = 10_000 + 60 + 30;
    await rejectionOf(verifier.verify(token, call));
  });
});
