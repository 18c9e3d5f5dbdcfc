// Smoke run of bench/official-codec.mjs (their HMAC codec against ours, both
// through their RequestStateCodec seam): a tiny slice, so `npm test` catches a
// workload that no longer runs. Figures come from the full run, never from here.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

let out: string;
beforeAll(() => {
  ensureBuilt("runtime/ext/official/index.js");
  out = mkdtempSync(join(tmpdir(), "mcp-official-codec-"));
}, 180_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("bench/official-codec.mjs", () => {
  it("runs every contender through their seam and writes its report", () => {
    const report = join(out, "RESULTS-official-codec.md");
    const run = spawnSync(process.execPath, ["bench/official-codec.mjs", "--seconds", "0.3", "--slices", "1", "--json", "--out", report], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout) as { contender: string; opsPerSecond: number; payloadReadable: boolean }[];
    expect(results.map((r) => [r.contender.split(":")[0], r.payloadReadable])).toEqual([
      ["theirs", true],
      ["theirs", true],
      ["ours", false],
      ["ours", false],
    ]);
    for (const r of results) expect(r.opsPerSecond).toBeGreaterThan(0);
    const markdown = readFileSync(report, "utf8");
    expect(markdown).toContain("# Request-state codecs through the official SDK's seam");
    expect(markdown.match(/^\| (theirs|ours): /gm)).toHaveLength(4);
  });
});
