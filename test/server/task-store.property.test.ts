// MemoryTaskStore against a model: bounded in count, never serving an expired task, and refusing a
// create only when the tasks it holds that have not expired fill it.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MemoryTaskStore, TaskStoreFull, type TaskRecord } from "mcp-roundtrip/server";

type Life = "working" | "expired" | "live";

function record(taskId: string, life: Life, now: number): TaskRecord {
  const expiresAt = life === "working" ? null : life === "expired" ? now - 1 : now + 3_600_000;
  return { taskId, status: life === "working" ? "working" : "completed", createdAt: now - 10, lastUpdatedAt: now - 5, expiresAt, pollIntervalMs: 1000 };
}

describe("MemoryTaskStore", () => {
  it("holds at most maxTasks, refuses only when unexpired tasks fill it, and never serves an expired task", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.constantFrom<Life>("working", "expired", "live"), { maxLength: 40 }), (maxTasks, lives) => {
        const store = new MemoryTaskStore({ maxTasks, maxTombstones: 1_000 });
        const held = new Map<string, Life>();
        lives.forEach((life, i) => {
          const now = Date.now();
          const unexpired = [...held.values()].filter((l) => l !== "expired").length;
          const id = `t${i}`;
          if (unexpired >= maxTasks) {
            expect(() => store.create(record(id, life, now))).toThrow(TaskStoreFull);
          } else {
            store.create(record(id, life, now));
            held.set(id, life);
          }
          expect(store.size).toBeLessThanOrEqual(maxTasks);
          // A swept task is gone from the store: the model forgets it too (it stays "expired" on lookups).
          for (const [known, l] of held) {
            const found = store.get(known, Date.now());
            if (l === "expired") {
              expect(found).toEqual({ expiredAt: expect.any(Number) });
              held.delete(known);
            } else expect(found).toMatchObject({ task: { taskId: known } });
          }
        });
        expect(store.get("never-created", Date.now())).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});
