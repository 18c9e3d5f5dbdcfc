import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../bench/state/seal-verify.mjs", import.meta.url));
const built = existsSync(fileURLToPath(new URL("../../dist/runtime/state/index.js", import.meta.url)));

// `npm test` builds dist/ before running vitest; a bare `vitest run` without a build skips this.
describe.runIf(built)("bench/state/seal-verify.mjs", () => {
  it("runs a tiny slice and reports every contender", () => {
    const run = spawnSync(process.execPath, [script, "--seconds", "0.3", "--slices", "1", "--json"], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout) as { contender: string; opsPerSecond: number }[];
    expect(results.map((r) => r.contender)).toEqual(["node", "noble", "node + principal", "official HMAC codec"]);
    for (const r of results) expect(r.opsPerSecond).toBeGreaterThan(0);
  });
});
