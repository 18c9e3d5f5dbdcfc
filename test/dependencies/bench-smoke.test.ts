import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../bench/dependencies/needs-vs-hand.mjs", import.meta.url));
const built = existsSync(fileURLToPath(new URL("../../dist/runtime/server/dependencies/index.js", import.meta.url)));

// `npm test` builds dist/ before running vitest; a bare `vitest run` without a build skips this.
describe.runIf(built)("bench/dependencies/needs-vs-hand.mjs", () => {
  it("runs a tiny slice and reports both contenders", () => {
    const run = spawnSync(process.execPath, [script, "--seconds", "0.4", "--slices", "1", "--json"], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout) as { contender: string; callsPerSecond: number; cpuMicrosPerCall: number }[];
    expect(results.map((r) => r.contender)).toEqual(["needs", "hand"]);
    for (const r of results) expect(r.callsPerSecond).toBeGreaterThan(0);
  });
});
