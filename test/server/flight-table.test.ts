// The table sessions keep their requests in flight in: whatever mix of sets, gets and deletes a session makes, it
// answers like a Map keyed by the JSON-RPC id (1 and "1" being different requests), and it stays small when
// millions of ids come and go.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FlightTable } from "../../runtime/protocol/flight-table.js";

type Op = { kind: "set" | "delete" | "get"; id: number | string; value: number };

/**
 * Ids as clients send them, from a small pool so sequences revisit them: counters that share the first and the
 * last slots of a small table (so probe runs collide and wrap around), negatives, huge safe integers, and
 * strings, some of which look like those numbers.
 */
const POOL: readonly (number | string)[] = [
  0,
  1,
  2,
  14,
  15,
  16,
  17,
  30,
  31,
  32,
  46,
  47,
  62,
  63,
  79,
  95,
  -1,
  -2,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 32,
  2 ** 32 + 15,
  2 ** 33,
  "1",
  "15",
  "",
  "a",
  "__proto__",
  "constructor",
];
const ops = fc.array(fc.record({ kind: fc.constantFrom("set" as const, "delete" as const, "get" as const), id: fc.constantFrom(...POOL), value: fc.integer() }), {
  maxLength: 200,
});

describe("FlightTable", () => {
  it("behaves like a Map keyed by request id under any sequence of sets, gets and deletes", () => {
    fc.assert(
      fc.property(ops, (sequence: Op[]) => {
        const table = new FlightTable<{ value: number }>();
        const model = new Map<number | string, { value: number }>();
        for (const op of sequence) {
          if (op.kind === "set") {
            const entry = { value: op.value };
            table.set(op.id, entry);
            model.set(op.id, entry);
          } else if (op.kind === "delete") {
            expect(table.delete(op.id)).toBe(model.delete(op.id));
          }
          // Every id answers as the model does after every step: a delete's shifting must not lose a neighbour.
          for (const id of POOL) expect(table.get(id)).toBe(model.get(id));
          expect(table.has(op.id)).toBe(model.has(op.id));
          expect(table.size).toBe(model.size);
        }
        expect(new Set(table.values())).toEqual(new Set(model.values()));
        expect(table.values()).toHaveLength(model.size);
      }),
      { numRuns: 500 },
    );
  });

  it("tells integer and string ids apart", () => {
    const table = new FlightTable<string>();
    table.set(1, "number");
    table.set("1", "string");
    expect([table.get(1), table.get("1"), table.size]).toEqual(["number", "string", 2]);
    table.delete(1);
    expect([table.get(1), table.get("1"), table.size]).toEqual([undefined, "string", 1]);
  });

  it("lets a caller change the table while going through a copy of its values, and empties on clear", () => {
    const table = new FlightTable<number>();
    for (let id = 1; id <= 40; id++) table.set(id, id);
    table.set("x", 0);
    for (const value of table.values()) table.delete(value === 0 ? "x" : value);
    expect(table.size).toBe(0);
    table.set(7, 7);
    table.clear();
    expect([table.size, table.get(7), table.values()]).toEqual([0, undefined, []]);
  });

  it("keeps its footprint to the requests in flight, not the requests answered", () => {
    const table = new FlightTable<object>();
    const entry = {};
    // A session answering 16 requests at a time for a million requests.
    for (let id = 1; id <= 1_000_000; id++) {
      table.set(id, entry);
      if (id > 16) table.delete(id - 16);
    }
    expect(table.size).toBe(16);
    // Its slots: enough for the 17 held at the peak of each step, at most half full, however high the ids went.
    expect(table.capacity).toBe(64);
  });
});
