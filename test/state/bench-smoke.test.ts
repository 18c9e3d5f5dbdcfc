import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../client/ensure-built.js";

const script = fileURLToPath(new URL("../../bench/state/seal-verify.mjs", import.meta.url));

// The bench imports the built package: build it when missing or stale, never skip.
beforeAll(() => ensureBuilt("runtime/state/index.js"), 180_000);

describe("bench/state/seal-verify.mjs", () => {
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
