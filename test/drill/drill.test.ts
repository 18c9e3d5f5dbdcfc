// The drill's short mode (issue 36): `npm run drill` with about 5,000
// exchanges, every fault kind once, overlapping, against real nginx, three
// instances and redis-server on 127.0.0.1. What a user of the SDK would see
// is asserted: no spent token accepted again, no wrong result, no exchange
// lost, no instance exit that was not injected, memory and handles back
// after the run. Needs nginx and redis-server (skipped loudly without them;
// CI sets MCP_REQUIRE_SYSTEM_TESTS=1, which makes that a failure).
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { drawChart } from "../../drill/chart.js";
import { FAULT_KINDS } from "../../drill/faults.js";
import { summaryLines } from "../../drill/report.js";
import { runDrill } from "../../drill/run.js";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { systemPrograms } from "../support/system.js";

const programs = systemPrograms("the drill (test/drill)", [
  { program: "nginx", aptPackage: "nginx" },
  { program: "redis-server", aptPackage: "redis-server" },
]);

describe.skipIf(programs === undefined)("the drill, short mode", () => {
  beforeAll(() => ensureBuilt("drill/instance.js"), 180_000);

  it("5,000 mixed exchanges through every kind of fault: 0 replays accepted, 0 wrong, 0 lost, 0 unexpected exits", async () => {
    const report = await runDrill(
      { nginx: programs!.nginx!, redisServer: programs!["redis-server"]!, instanceScript: join(root, "dist/drill/instance.js") },
      // Every kind must start before the 5,000 exchanges end: a fast run (~40 s) outran a 4 s gap (up to 6 s seeded).
      { exchanges: 5_000, seed: 1, users: 24, thinkMs: 20, faultGapMs: 2_000, faultCount: FAULT_KINDS.length },
    );
    for (const line of summaryLines(report)) console.log(line);
    expect(report.line).toBe("drill: 5000 exchanges, 0 replays accepted, 0 wrong, 0 lost, 0 unexpected exits");
    expect([...new Set(report.faults.map((fault) => fault.kind))].sort()).toEqual([...FAULT_KINDS].sort());
    // The chaos client did send spent tokens again, across the faults, and every one was refused.
    expect(report.chaos.replays).toBeGreaterThan(50);
    expect(report.chaos.refused + report.chaos.unavailable).toBe(report.chaos.replays);
    expect(report.chaos.acrossRedisRestart).toBeGreaterThan(0);
    expect(report.memory.withinMargin).toBe(true);
    for (const kind of ["mrtr", "plain", "session2025", "listen", "task"]) expect(report.byKind[kind]).toBeGreaterThan(0);
    const chart = drawChart("short mode", report.seconds, report.faults);
    for (const kind of FAULT_KINDS) expect(chart).toContain(kind);
  }, 170_000);
});
