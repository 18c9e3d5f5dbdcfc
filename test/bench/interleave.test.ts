// How the bench measures a server beside its floor (bench/lib/interleave.mjs):
// the members take turns in one window, and each figure adds up only its own
// slices. Fake workloads stand in for the HTTP servers: each call says whose
// turn it was, and each "server" counts its calls as its CPU time.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "mcp-interleave-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FAKE = `
export const turns = [];
export const closed = [];
export async function fake({ name, cpuPerCall, failClose = false }) {
  let calls = 0;
  return {
    call: async () => { calls++; turns.push(name); await new Promise((r) => setImmediate(r)); return "ok"; },
    check: (text) => { if (text !== "ok") throw new Error("wrong answer"); },
    serverCpu: async () => { turns.push("cpu:" + name); return calls * cpuPerCall; },
    close: async () => { closed.push(name); if (failClose) throw new Error(name + " would not close"); },
  };
}
export async function broken() { throw new Error("cannot start"); }
`;
const fakeModule = join(dir, "fake.mjs");
writeFileSync(fakeModule, FAKE);

async function load(path: string): Promise<any> {
  return import(pathToFileURL(path).href);
}

const PROFILE = { warmup: { sliceMs: 5, minMs: 20, maxMs: 40, plateauSlices: 2 }, windowMs: 60, interleaveSliceMs: 10, maxOps: 1_000_000 };
const spec = (id: string, options: object, factory = "fake") => ({ id, module: pathToFileURL(fakeModule).href, factory, options, mode: "async", concurrency: 2 });

describe("interleaved measurement", () => {
  it("times the members in turns over one window and keeps each one's calls and server CPU apart", async () => {
    const { measureInterleaved } = await load(join(root, "bench/lib/interleave.mjs"));
    const fake = await load(fakeModule);
    fake.turns.length = 0;
    const results = await measureInterleaved([spec("a", { name: "a", cpuPerCall: 10 }), spec("b", { name: "b", cpuPerCall: 30 })], PROFILE);
    expect(results.map((r: { id: string }) => r.id)).toEqual(["a", "b"]);
    // Each member's server CPU per call is its own, not a blend of both.
    expect(results[0].serverCpuMicrosPerOp).toBeCloseTo(10, 5);
    expect(results[1].serverCpuMicrosPerOp).toBeCloseTo(30, 5);
    // So is the window timed again with the load client kept awake.
    expect(results[0].awakeServerCpuMicrosPerOp).toBeCloseTo(10, 5);
    expect(results[1].awakeServerCpuMicrosPerOp).toBeCloseTo(30, 5);
    expect(results[0].interleavedWith).toEqual(["b"]);
    expect(results[1].interleavedWith).toEqual(["a"]);
    // The window's slices, in order (each reads its server's CPU before and after): turns, the first rotating;
    // then the same turns again, the client awake.
    const cpuReads = fake.turns.filter((turn: string) => turn.startsWith("cpu:")).map((turn: string) => turn.slice(4));
    const slices = cpuReads.filter((_: string, i: number) => i % 2 === 0);
    const window = ["a", "b", "b", "a", "a", "b", "b", "a", "a", "b", "b", "a"];
    expect(slices).toEqual([...window, ...window]);
    // The warm-ups take turns too (at least 4 slices each here): one block each would make 2 runs of calls, not 8.
    const warming = fake.turns.slice(2, fake.turns.indexOf("cpu:a"));
    const runs = 1 + warming.slice(1).filter((name: string, i: number) => name !== warming[i]).length;
    expect(runs).toBeGreaterThanOrEqual(8);
    for (const result of results) {
      expect(result.ops).toBeGreaterThan(0);
      expect(result.ms).toBeGreaterThanOrEqual(PROFILE.windowMs * 0.9);
      expect(result.value).toBeCloseTo((result.ops / result.ms) * 1000, 5);
    }
    expect(fake.closed).toEqual(["a", "b"]);
  });

  it("closes every member set up when one cannot start, and says which", async () => {
    const { measureInterleaved } = await load(join(root, "bench/lib/interleave.mjs"));
    const fake = await load(fakeModule);
    fake.closed.length = 0;
    await expect(measureInterleaved([spec("a", { name: "a", cpuPerCall: 1 }), spec("c", {}, "broken")], PROFILE)).rejects.toThrow("cannot start");
    expect(fake.closed).toEqual(["a"]);
  });

  it("fails a measurement whose member would not close, after closing the others", async () => {
    const { measureInterleaved } = await load(join(root, "bench/lib/interleave.mjs"));
    const fake = await load(fakeModule);
    fake.closed.length = 0;
    await expect(measureInterleaved([spec("a", { name: "a", cpuPerCall: 1, failClose: true }), spec("b", { name: "b", cpuPerCall: 1 })], PROFILE)).rejects.toThrow(
      "a would not close",
    );
    expect(fake.closed).toEqual(["a", "b"]);
  });

  it("refuses a workload it cannot time in slices", async () => {
    const { measureInterleaved } = await load(join(root, "bench/lib/interleave.mjs"));
    const fixed = { ...spec("a", { name: "a", cpuPerCall: 1 }), fixedOps: 10 };
    await expect(measureInterleaved([fixed, spec("b", { name: "b", cpuPerCall: 1 })], PROFILE)).rejects.toThrow(/only timed async workloads/);
  });
});
