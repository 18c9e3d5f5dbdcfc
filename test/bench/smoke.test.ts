// The bench's smoke run: every workload once, with tiny counts, so `npm test`
// catches a workload that no longer runs (a renamed export, a wrong answer,
// a server left open) without measuring anything. Figures come from
// `npm run bench`, never from here.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { ensureBuilt } from "../client/ensure-built.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Imports a bench module (plain .mjs, untyped). */
async function load(path: string): Promise<any> {
  const url: string = pathToFileURL(join(root, path)).href;
  return import(url);
}

/** Runs a bench script (`bench/<script>`) as `node` would from the repository root. */
function benchScript(script: string, args: string[], timeout = 80_000) {
  return spawnSync(process.execPath, [`bench/${script}`, ...args], { cwd: root, encoding: "utf8", timeout });
}

let out: string;

beforeAll(() => {
  // The bench imports mcp-roundtrip/* from dist/ (package self-reference);
  // `npm test` builds before vitest, a lone `vitest run test/bench` may not have.
  ensureBuilt("runtime/entries/server.js");
  out = mkdtempSync(join(tmpdir(), "mcp-bench-smoke-"));
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("bench smoke run", () => {
  it("runs every workload once and writes RESULTS.md, chart.svg and results.json", { timeout: 120_000 }, async () => {
    // A plain node process, as `npm run bench` runs it (and far faster than
    // loading both SDKs through the test runner's module transform).
    const run = spawnSync(process.execPath, ["bench/run.mjs", "--smoke", "--out", out], {
      cwd: root,
      encoding: "utf8",
      timeout: 100_000,
    });
    expect(run.stderr).not.toMatch(/✗|failed|left open/);
    expect(run.status).toBe(0);
    const { workloads } = await load("bench/catalog.mjs");
    const summary = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    const ids = workloads().map((w: { id: string }) => w.id);
    expect(summary.rows.map((r: { id: string }) => r.id)).toEqual(ids);
    for (const row of summary.rows) expect(Number.isFinite(row.median), row.id).toBe(true);
    // A heap figure from the smoke's tiny counts in one shared process is noise and may come out below
    // zero (the collector freed more than a few sessions hold): it must be a number, nothing more.
    const mayDipBelowZero: Set<string> = new Set(
      workloads()
        .filter((w: { unit: string }) => w.unit === "bytes")
        .map((w: { id: string }) => w.id),
    );
    // Likewise a cold start measured above bare node (group "coldstart": ours minus node's own start) from one
    // smoke sample on a loaded machine may come out at or below zero.
    for (const w of workloads() as Array<{ id: string; group?: string }>) if (w.group === "coldstart") mayDipBelowZero.add(w.id);
    for (const ratio of summary.ratios) {
      // A ratio not judged (a client-bound row under load, a figure at or below zero) carries its reason and no number.
      if (ratio.unavailable !== undefined) expect(typeof ratio.unavailable, ratio.id).toBe("string");
      else if (mayDipBelowZero.has(ratio.numerator) || mayDipBelowZero.has(ratio.denominator)) expect(Number.isFinite(ratio.ratio), ratio.id).toBe(true);
      else expect(ratio.ratio, ratio.id).toBeGreaterThan(0);
    }
    // A budget is met or missed, or (its ratio not judged in a smoke on a loaded machine) says why not.
    const judged = ["met", "missed", "unavailable", "client-bound (not judged)"];
    expect(summary.budgets.filter((b: { status: string }) => !judged.includes(b.status))).toEqual([]);

    const markdown = readFileSync(join(out, "RESULTS.md"), "utf8");
    expect(markdown).toContain("Smoke profile");
    for (const heading of [
      "## Budgets",
      "## In-process tool calls, plain",
      "## In-process tool calls, full MRTR",
      "## 2025 path in process, plain",
      "## 2025 path in process, one elicitation per call",
      "## Streamable HTTP on 127.0.0.1, plain",
      "## Streamable HTTP on 127.0.0.1, full MRTR",
      "## 2025 path over Streamable HTTP with sessions, plain",
      "## 2025 path over Streamable HTTP with sessions, one elicitation per call",
      "## Seal + verify",
      "## Validation",
      "## Server heap growth",
      "## Server heap per idle 2025 session",
      "## Cold start",
      "## Cold start over HTTP",
      "## Ratios",
    ]) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).not.toContain("failed:");
    // A server judged against a floor shares the floor's window, and the report says so.
    for (const id of ["http.echo.c16", "http.plain.ours.c16", "legacy.http.plain.ours.c64", "http.mrtr.ours.c16"]) {
      expect(summary.rows.find((r: { id: string }) => r.id === id).interleaved, id).toBe(true);
    }
    expect(summary.rows.find((r: { id: string }) => r.id === "http.plain.tmcp.c16").interleaved).toBeUndefined();
    expect(markdown).toContain("| mcp-roundtrip, serveHttp *(interleaved)* | 16 |");

    // The cold-start rows watch the 2025 validators: absent from a 2026-only start, loaded once a 2025 session opens
    // (which also proves the import recorder sees them).
    const row = (id: string) => summary.rows.find((r: { id: string }) => r.id === id);
    expect(row("coldstart.ours").flags).toEqual({ tables2025Loaded: false });
    expect(row("coldstart.ours2025").flags).toEqual({ tables2025Loaded: true });
    expect(row("coldstart.ours").modulesLoaded).toBeGreaterThan(10);
    expect(summary.budgets.find((b: { id: string }) => b.id === "coldstart.ours.lazy2025").status).toBe("met");

    const svg = readFileSync(join(out, "chart.svg"), "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg).not.toContain("did not run");
  });

  /** Runs bench/worker.mjs on `ids` with tiny counts; what it printed, once it exited cleanly and said nothing on stderr. */
  function workerResult(ids: string): any {
    const profile = {
      warmup: { sliceMs: 5, minMs: 5, maxMs: 20, plateauSlices: 2 },
      windowMs: 20,
      interleaveSliceMs: 5,
      maxOps: 500,
      pendingCount: 50,
      pendingWarmup: 5,
    };
    const worker = spawnSync(process.execPath, ["bench/worker.mjs", ids, JSON.stringify(profile)], { cwd: root, encoding: "utf8", timeout: 20_000 });
    expect(worker.stderr).toBe("");
    expect(worker.status).toBe(0);
    return JSON.parse(worker.stdout.trim());
  }

  it("runs a repetition in a worker process that reports one figure and exits by itself", () => {
    const result = workerResult("http.plain.ours.c16");
    expect(result.id).toBe("http.plain.ours.c16");
    expect(result.serverCpuMicrosPerOp).toBeGreaterThan(0);
    expect(result.awakeServerCpuMicrosPerOp).toBeGreaterThan(0);
    expect(result.value).toBeGreaterThan(0);
    expect(result.maxRssBytes).toBeGreaterThan(1024 * 1024);
  });

  it("measures workloads named together in one worker, each with its own figures", () => {
    const results = workerResult("http.echo.c1,http.plain.ours.c1");
    expect(results.map((result: { id: string }) => result.id)).toEqual(["http.echo.c1", "http.plain.ours.c1"]);
    expect(results[0].interleavedWith).toEqual(["http.plain.ours.c1"]);
    expect(results[1].interleavedWith).toEqual(["http.echo.c1"]);
    for (const result of results) {
      expect(result.serverCpuMicrosPerOp).toBeGreaterThan(0);
      expect(result.awakeServerCpuMicrosPerOp).toBeGreaterThan(0);
      expect(result.latencyP50Ms).toBeGreaterThan(0);
      expect(result.maxRssBytes).toBeGreaterThan(1024 * 1024);
    }
  });

  it("refuses a full run with fewer than 5 repetitions or without process isolation", async () => {
    const { runBench } = await load("bench/run.mjs");
    await expect(runBench({ reps: 3, log: () => {} })).rejects.toThrow(RangeError);
    await expect(runBench({ inProcess: true, log: () => {} })).rejects.toThrow(/smoke only/);
  });

  it("names the known workloads when given an unknown one", async () => {
    const { workload } = await load("bench/catalog.mjs");
    expect(() => workload("inproc.nope")).toThrow(/known: inproc\.plain\.ours\.c1/);
  });
});

describe("bench statistics", () => {
  it("takes the median, ignoring outliers on either side", async () => {
    const { median } = await load("bench/lib/stats.mjs");
    expect(median([5, 1, 1000, 3, 4])).toBe(4);
    expect(median([1, 2, 3, 4])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
    expect(() => median([1, Number.NaN])).toThrow(RangeError);
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }), { minLength: 1 }), (values) => {
        const m = median(values);
        return m >= Math.min(...values) && m <= Math.max(...values);
      }),
    );
  });

  it("pairs ratios repetition by repetition", async () => {
    const { pairedRatio } = await load("bench/lib/stats.mjs");
    // Load drifts 10× between repetitions; the pair ratio stays 2.
    expect(pairedRatio([200, 20, 2000], [100, 10, 1000])).toBe(2);
    expect(() => pairedRatio([1, 2], [1])).toThrow(RangeError);
    expect(() => pairedRatio([1], [0])).toThrow(RangeError);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 9 }),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        (base, factor) =>
          Math.abs(
            pairedRatio(
              base.map((v) => v * factor),
              base,
            ) - factor,
          ) <=
          factor * 1e-9,
      ),
    );
  });
});

describe("bench verdicts", () => {
  const row = (id: string, serverCpu: number[], awakeServerCpu?: number[]) => ({ id, values: [1, 1], serverCpu, awakeServerCpu });

  it("judge server CPU with the load client kept awake, and give the sleeping client's ratio beside it", async () => {
    const { judge } = await load("bench/lib/summary.mjs");
    const { ratios, budgets } = judge([row("http.plain.ours.c16", [40, 44], [30, 33]), row("http.echo.c16", [30, 33], [25, 27.5])]);
    const ratio = ratios.find((r: { id: string }) => r.id === "http.plain.cpuVsEcho.c16");
    expect(ratio.ratio).toBeCloseTo(1.2, 9);
    expect(ratio.asleepRatio).toBeCloseTo(4 / 3, 9);
    const budget = budgets.find((b: { id: string }) => b.id === "http.plain.cpuVsEcho.c16");
    expect(budget).toMatchObject({ status: "met", asleepFigure: ratio.asleepRatio });
  });

  it("fall back to the sleeping client's figures when a row has no awake window", async () => {
    const { judge } = await load("bench/lib/summary.mjs");
    const { ratios } = judge([row("http.plain.ours.c16", [40, 44], [30, 33]), row("http.echo.c16", [32, 35.2])]);
    const ratio = ratios.find((r: { id: string }) => r.id === "http.plain.cpuVsEcho.c16");
    expect(ratio.ratio).toBeCloseTo(1.25, 9);
    expect(ratio.asleepRatio).toBeUndefined();
    expect(ratio.asleepOnly).toBe(true);
  });
});

describe("bench loops", () => {
  it("stop at the operation bound even with time to spare", async () => {
    const { driveAsync, driveSync } = await load("bench/lib/drive.mjs");
    let calls = 0;
    const measured = await driveAsync(async () => calls++, { concurrency: 4, durationMs: 60_000, maxOps: 37 });
    expect(measured.ops).toBe(37);
    expect(calls).toBe(37);
    const sync = driveSync(() => true, { durationMs: 60_000, maxOps: 640 });
    expect(sync.ops).toBe(640);
  });

  it("stop at the deadline even with operations to spare", async () => {
    const { driveAsync } = await load("bench/lib/drive.mjs");
    const slow = () => new Promise((resolve) => setTimeout(resolve, 5));
    const measured = await driveAsync(slow, { concurrency: 2, durationMs: 30, maxOps: 1e9 });
    expect(measured.ops).toBeLessThan(1e9);
    expect(measured.ops).toBeGreaterThan(0);
  });

  it("reject non-positive limits", async () => {
    const { driveAsync } = await load("bench/lib/drive.mjs");
    await expect(driveAsync(async () => 0, { concurrency: 0, durationMs: 10, maxOps: 10 })).rejects.toThrow(/concurrency/);
  });
});

describe("bench warm-up", () => {
  /** A slice that reports the next throughput from `rates` (the last one repeats), taking `ms` of real time. */
  function scripted(rates: number[], ms = 0) {
    let i = 0;
    const slices: number[] = [];
    const slice = async ({ durationMs }: { durationMs: number }) => {
      slices.push(durationMs);
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
      const perSecond = rates[Math.min(i++, rates.length - 1)]!;
      return { ops: 1, perSecond };
    };
    return { slice, slices };
  }

  it("ends once throughput has stopped rising for the plateau length", async () => {
    const { warmUp } = await load("bench/lib/drive.mjs");
    // Rising for four slices, then flat within the 3% tolerance.
    const { slice, slices } = scripted([100, 200, 400, 800, 810, 805, 790, 812]);
    const warm = await warmUp(slice, { sliceMs: 50, minMs: 0, maxMs: 60_000, plateauSlices: 3 });
    expect(warm.plateaued).toBe(true);
    // The best rose at slice 4 (800; 810 and 812 are within 3%), so three flat slices later it stops.
    expect(slices).toHaveLength(7);
    expect(warm.ops).toBe(7);
  });

  it("keeps going while throughput rises, until the maximum", async () => {
    const { warmUp } = await load("bench/lib/drive.mjs");
    const rising = Array.from({ length: 1000 }, (_, i) => 100 * 1.1 ** i);
    const { slice } = scripted(rising, 5);
    const warm = await warmUp(slice, { sliceMs: 5, minMs: 0, maxMs: 60, plateauSlices: 2 });
    expect(warm.plateaued).toBe(false);
    expect(warm.ms).toBeGreaterThanOrEqual(60);
  });

  it("runs at least the minimum even when throughput is flat from the start", async () => {
    const { warmUp } = await load("bench/lib/drive.mjs");
    const { slice, slices } = scripted([500], 5);
    const warm = await warmUp(slice, { sliceMs: 5, minMs: 50, maxMs: 10_000, plateauSlices: 1 });
    expect(warm.ms).toBeGreaterThanOrEqual(50);
    expect(slices.length).toBeGreaterThan(2);
  });

  it("rejects a minimum above the maximum and a plateau of zero slices", async () => {
    const { warmUp } = await load("bench/lib/drive.mjs");
    const { slice } = scripted([1]);
    await expect(warmUp(slice, { sliceMs: 5, minMs: 100, maxMs: 10, plateauSlices: 2 })).rejects.toThrow(/minMs/);
    await expect(warmUp(slice, { sliceMs: 5, minMs: 0, maxMs: 10, plateauSlices: 0 })).rejects.toThrow(/plateauSlices/);
  });
});

describe("the bare echo floor", () => {
  // A floor that answered fewer bytes would book the answer's length as the SDK's work: it must answer,
  // to the same call, exactly what our server answers, in each generation.
  it.each([
    ["bare", "bench/workloads/echo.mjs", "echoServer"],
    ["with our checks", "bench/workloads/checks-floor.mjs", "checksFloorServer"],
  ])("%s, answers each 2026-07-28 and 2025 call with the bytes our server answers", async (_kind, module, factory) => {
    const { serveBench } = await load("bench/workloads/ours.mjs");
    const { toolsCallRequest } = await load("bench/workloads/fixtures.mjs");
    const floor = await (await load(module))[factory]();
    const servers = { "2026-07-28": await serveBench(), "2025-11-25": await serveBench({ legacy: true, stateless: true }) };
    try {
      for (const [era, ours] of Object.entries(servers)) {
        for (const [name, args] of [
          ["echo", { text: "hello" }],
          ["add", { a: 19, b: 23 }],
        ] as const) {
          const call = toolsCallRequest(7);
          call.params.name = name;
          call.params.arguments = args;
          if (era !== "2026-07-28") delete call.params._meta;
          const post = async (url: string) => {
            const headers = {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": era,
              "mcp-method": "tools/call",
              "mcp-name": name,
            };
            const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(call) });
            expect(response.status).toBe(200);
            return response.text();
          };
          const answer = await post(ours.url);
          expect(answer, `${era} ${name}`).toContain(name === "add" ? '"text":"42"' : '"text":"hello"');
          expect(await post(floor.url), `${era} ${name}`).toBe(answer);
        }
      }
    } finally {
      await floor.close();
      for (const ours of Object.values(servers)) await ours.close();
    }
  });

  it("with our checks, refuses what ours refuses: a header the body contradicts, a bad envelope, bad arguments", async () => {
    const { checksFloorServer } = await load("bench/workloads/checks-floor.mjs");
    const { toolsCallRequest } = await load("bench/workloads/fixtures.mjs");
    const floor = await checksFloorServer();
    const post = async (mutate: (call: any, headers: Record<string, string>) => void) => {
      const call = toolsCallRequest(7);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "echo",
      };
      mutate(call, headers);
      return (await fetch(floor.url, { method: "POST", headers, body: JSON.stringify(call) })).status;
    };
    try {
      expect(await post(() => {})).toBe(200);
      expect(await post((_call, headers) => (headers["mcp-name"] = "add"))).toBe(400);
      expect(await post((_call, headers) => (headers.accept = "application/json"))).toBe(400);
      expect(await post((call) => (call.params._meta["io.modelcontextprotocol/clientCapabilities"] = "all"))).toBe(400);
      expect(await post((call) => (call.params.arguments = { text: 42 }))).toBe(400);
    } finally {
      await floor.close();
    }
  });

  it("the MRTR floor answers both rounds as ours does, but for the sealed state", async () => {
    const { mrtrFloorServer } = await load("bench/workloads/mrtr-floor.mjs");
    const { serveBench } = await load("bench/workloads/ours.mjs");
    const { CONFIRM_ANSWER, toolsCallRequest } = await load("bench/workloads/fixtures.mjs");
    const rounds = async (url: string) => {
      const call = toolsCallRequest(7);
      call.params.name = "confirm";
      const post = async () => {
        const headers = {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "confirm",
        };
        return (await fetch(url, { method: "POST", headers, body: JSON.stringify(call) })).text();
      };
      const first = await post();
      const state = JSON.parse(first).result.requestState;
      expect(typeof state).toBe("string");
      Object.assign(call.params, { requestState: state, inputResponses: { confirm: CONFIRM_ANSWER } });
      return [first.replace(state, "<state>"), await post()];
    };
    const floor = await mrtrFloorServer();
    const ours = await serveBench();
    try {
      expect(await rounds(floor.url)).toEqual(await rounds(ours.url));
    } finally {
      await floor.close();
      await ours.close();
    }
  });
});

describe("pending-exchange heap measurement", () => {
  it("sees the growth of a server that keeps exchanges in memory, and finishes one of them", async () => {
    const { statefulPending } = await load("bench/workloads/pending.mjs");
    const outcome = await statefulPending({ count: 2_000, warmup: 50 });
    // Each kept exchange holds its arguments, state and input requests: hundreds of bytes.
    expect(outcome.perExchangeBytes).toBeGreaterThan(200);
  });
  it("measures the heap of tasks parked in input_required, and finishes the last through tasks/update", async () => {
    const { pendingTasks } = await load("bench/workloads/tasks.mjs");
    const outcome = await pendingTasks({ count: 500, warmup: 20 });
    // A task lives on the server: its record, its handler's context and its question.
    expect(outcome.perTaskBytes).toBeGreaterThan(200);
  });
});

describe("bench/ab.mjs", () => {
  it("loads both builds and the floors at once, round after round, and gives B / A with its interval", { timeout: 90_000 }, () => {
    // A 2025 session's calls: ours opens a session, the floors (which hold none) are sent the 2025 calls without one.
    const run = benchScript("ab.mjs", ["--b", ".", "--rounds", "2", "--seconds", "0.1", "--concurrency", "2", "--workload", "session", "--smoke"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("session, c=2, concurrent: 2 rounds");
    // Each round: the four servers' CPU per call, then B / A of that round.
    expect(run.stdout.match(/^ {4}\d( +\d+\.\d{2}){4} {3}\d+\.\d{3}$/gm)).toHaveLength(2);
    expect(run.stdout).toMatch(/^B \/ A: \d+\.\d{3}, 95 % interval ±\d+\.\d{3} \(paired by round\)$/m);
  });

  it("measures an MRTR call's two sealed rounds beside the MRTR floor alone with --workload mrtr", { timeout: 90_000 }, () => {
    const run = benchScript("ab.mjs", ["--b", ".", "--rounds", "2", "--seconds", "0.1", "--concurrency", "2", "--workload", "mrtr", "--smoke"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("mrtr, c=2, concurrent: 2 rounds");
    // Three servers per round: the MRTR floor and both builds; no checks floor, which plays no MRTR round.
    expect(run.stdout).toMatch(/^round +floor +A +B /m);
    expect(run.stdout.match(/^ {4}\d( +\d+\.\d{2}){3} {3}\d+\.\d{3}$/gm)).toHaveLength(2);
  });

  it("keeps the load client awake with --awake, and lets it go once done", { timeout: 90_000 }, () => {
    // The run ends: a spinning client that were never released would keep the process alive until the timeout.
    const run = benchScript("ab.mjs", ["--b", ".", "--rounds", "2", "--seconds", "0.1", "--concurrency", "2", "--awake", "--smoke"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("plain, c=2, concurrent, the client kept awake: 2 rounds");
    expect(run.stdout).toMatch(/^B \/ A: \d+\.\d{3}, 95 % interval ±\d+\.\d{3} \(paired by round\)$/m);
  });

  it("measures two builds in interleaved slices beside the floors and gives the difference with its interval", { timeout: 90_000 }, () => {
    const run = benchScript("ab.mjs", ["--b", ".", "--rounds", "2", "--seconds", "0.05", "--concurrency", "2", "--mode", "interleaved", "--smoke"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.match(/^ {4}\d {2}/gm)).toHaveLength(2);
    expect(run.stdout).toMatch(/^B − A: [+-]\d+\.\d{3}× the floor, 95 % interval ±\d+\.\d{3}$/m);
  });

  it("reads the interleaved slices' awake window with --awake", { timeout: 90_000 }, () => {
    const run = benchScript("ab.mjs", ["--b", ".", "--rounds", "2", "--seconds", "0.05", "--concurrency", "2", "--mode", "interleaved", "--awake", "--smoke"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("plain, c=2, interleaved, the client kept awake: 2 rounds");
    expect(run.stdout.match(/^ {4}\d( +\d+\.\d{2}){4} /gm)).toHaveLength(2);
  });

  it("names what is wrong with its flags", () => {
    const run = benchScript("ab.mjs", ["--b", ".", "--workload", "sse"], 20_000);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("unknown workload sse");
    const mode = benchScript("ab.mjs", ["--b", ".", "--mode", "fast"], 20_000);
    expect(mode.status).toBe(2);
    expect(mode.stderr).toContain("unknown mode fast");
  });

  it("pairedMean: the mean of per-round ratios and a 95 % interval by Student's t", async () => {
    const { pairedMean } = await load("bench/lib/stats.mjs");
    const three = pairedMean([0.98, 1.0, 1.02]);
    expect(three.mean).toBeCloseTo(1, 10);
    // s = 0.02, t(2 df) 4.303: 4.303 × 0.02 / √3.
    expect(three.halfWidth).toBeCloseTo((4.303 * 0.02) / Math.sqrt(3), 6);
    expect(pairedMean([1, 1, 1]).halfWidth).toBe(0);
    expect(() => pairedMean([1])).toThrow(/at least two/);
    expect(() => pairedMean([1, Number.NaN])).toThrow(/finite/);
  });

  it("meanDifference: the difference of the means and a 95 % interval that narrows with more figures", async () => {
    const { meanDifference } = await load("bench/lib/stats.mjs");
    const few = meanDifference([1, 2, 3], [2, 3, 4]);
    expect(few.difference).toBeCloseTo(1, 10);
    // Welch with equal spreads: t(4 df) 2.776 × √(1/3 + 1/3).
    expect(few.halfWidth).toBeCloseTo(2.776 * Math.sqrt(2 / 3), 3);
    const many = meanDifference([1, 2, 3, 1, 2, 3, 1, 2, 3], [2, 3, 4, 2, 3, 4, 2, 3, 4]);
    expect(many.halfWidth).toBeLessThan(few.halfWidth);
    expect(() => meanDifference([1], [2, 3])).toThrow(/at least two/);
  });
});

describe("bench/layers.mjs", () => {
  it("splits ours's cost above the floor into the protocol layer and the HTTP layer", { timeout: 90_000 }, () => {
    const run = benchScript("layers.mjs", ["--rounds", "1", "--seconds", "0.5", "--concurrency", "2"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    for (const name of ["floor", "protocol", "ours"]) expect(run.stdout).toMatch(new RegExp(`^  ${name}\\s+\\d+\\.\\d µs`, "m"));
    expect(run.stdout).toMatch(/the floor's JSON work \d+\.\d+ µs, our protocol layer \d+\.\d+ µs per call/);
  });

  it("refuses a count that is not positive, naming the flag", () => {
    const run = benchScript("layers.mjs", ["--rounds", "0"], 20_000);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("--rounds needs a positive number, got 0");
  });
});

describe("bench/profile.mjs", () => {
  it("profiles a server process and names the .ts files its time went to", { timeout: 60_000 }, () => {
    // --awake: the load client spins while it waits, and must let the process exit once done.
    const run = benchScript("profile.mjs", ["plain", "--seconds", "0.5", "--warmup", "0.2", "--concurrency", "2", "--top", "40", "--awake"], 50_000);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^plain, c=2, server process, the client kept awake: \d+(\.\d+)? µs CPU per call over \d+ calls/);
    // The bundled chunks are mapped back to the modules a maintainer edits.
    expect(run.stdout).toMatch(/%\s+runtime\/server\/request\.ts/);
    // Only what the bundler wrote itself (module glue) may keep a chunk's name, and says so.
    for (const line of run.stdout.split("\n").filter((text) => text.includes("chunks/"))) expect(line).toContain("(no source map entry)");
  });

  it("refuses an unknown workload with the usage line", () => {
    const run = benchScript("profile.mjs", ["nonsense"], 20_000);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("usage: node bench/profile.mjs <plain|mrtr|plain2025|stateless2025|elicit|elicitFloor|echo|checks|mrtrFloor|seal>");
    expect(run.stderr).not.toContain("    at ");
    expect(run.stderr).toContain("unknown workload nonsense");
  });
});
