// ad-hoc: distinct functions run per request, server in-process, client in a child.
import { Session } from "node:inspector/promises";
import { fork } from "node:child_process";
const [which = "ours", workload = "plain", N = "2000"] = process.argv.slice(2);
const n = Number(N);
if (process.argv[2] === "--client") {}
const mod = which === "ours" ? await import("./workloads/ours.mjs") : which === "checks" ? await import("./workloads/checks-floor.mjs") : await import("./workloads/echo.mjs");
const server = which === "ours" ? await mod.serveBench({ legacy: workload !== "plain", stateless: workload === "stateless" }) : which === "checks" ? await mod.checksFloorServer({}) : await mod.echoServer();
const era = workload === "plain" ? "2026-07-28" : "2025-11-25";
const child = fork(new URL("./fcount-client.tmp.mjs", import.meta.url), [server.url, era, String(workload === "session"), String(n)]);
const s = new Session(); s.connect();
await s.post("Profiler.enable");
await s.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
await new Promise((r) => child.once("message", r)); // warmed
await s.post("Profiler.takePreciseCoverage");
child.send("go");
await new Promise((r) => child.once("message", r));
const { result } = await s.post("Profiler.takePreciseCoverage");
const rows = [];
for (const script of result) {
  for (const f of script.functions) {
    const c = f.ranges[0].count;
    if (c >= n * 0.9) rows.push({ url: script.url.replace(/^file:\/\/\/work\/main\//, ""), name: f.functionName || "(anon)", per: c / n });
  }
}
const byUrl = {};
for (const r of rows) { const k = r.url.startsWith("node:") ? r.url : r.url.split("/").slice(0, 4).join("/"); byUrl[k] = (byUrl[k] ?? 0) + 1; }
console.log(which, workload, "functions run >=0.9x per request:", rows.length);
console.log(Object.entries(byUrl).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${String(v).padStart(4)} ${k}`).join("\n"));
if (process.env.LIST) for (const r of rows.filter((r) => !r.url.startsWith("node:"))) console.log(r.per.toFixed(1), r.url, r.name);
child.kill(); await server.close(); process.exit(0);
