// `npm run drill`: the fleet drill from the command line. Builds nothing
// itself (scripts/drill.mjs builds first); needs nginx and redis-server.
//
//   npm run drill -- --exchanges 100000 --report drill/out
//   npm run drill -- --cluster
//   npm run drill -- fuzz --mutations 1000000
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, InvalidArgumentError } from "commander";
import { drawChart } from "./chart.js";
import { runFuzz } from "./fuzz.js";
import { findProgram } from "./programs.js";
import { markdownSummary, summaryLines } from "./report.js";
import { runDrill } from "./run.js";

const count = (value: string) => {
  const parsed = Number(value.replace(/_/g, ""));
  if (!Number.isSafeInteger(parsed) || parsed <= 0) throw new InvalidArgumentError("expected a positive integer");
  return parsed;
};

const program = new Command("drill").description("The fleet drill: nginx, three instances and Redis on 127.0.0.1, under a seeded workload and seeded faults");
program
  .option("--exchanges <n>", "exchanges to run", count, 5_000)
  .option("--seed <n>", "seed of the workload and the fault schedule", count, 1)
  .option("--users <n>", "simulated users at once", count, 24)
  .option("--think <ms>", "longest think time between two exchanges of one user", count, 20)
  .option("--fault-gap <ms>", "time between two fault starts (seeded, 0.5-1.5x)", count, 4_000)
  .option("--fault-count <n>", "faults to inject (the first seven are one of each kind)", count, 7)
  .option("--no-faults", "run the workload without faults")
  .option("--cluster", "use a Redis Cluster (three masters with a replica each) instead of one redis-server")
  .option("--report <dir>", "where to write summary.md and chart.svg", "drill/out")
  .action(async (options) => {
    const stop = new AbortController();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
    const report = await runDrill(
      {
        nginx: findProgram("nginx", "nginx"),
        redisServer: findProgram("redis-server", "redis-server"),
        redisCli: findProgram("redis-cli", "redis-tools"),
        instanceScript: fileURLToPath(new URL("./instance.js", import.meta.url)),
      },
      { ...options, thinkMs: options.think, faultGapMs: options.faultGap, faultCount: options.faultCount, signal: stop.signal, log: (line) => console.log(line) },
    );
    mkdirSync(options.report, { recursive: true });
    const title = `${report.exchanges.toLocaleString("en")} exchanges, ${report.faults.length} faults, seed ${options.seed}${options.cluster ? ", Redis Cluster" : ""}`;
    writeFileSync(join(options.report, "chart.svg"), drawChart(title, report.seconds, report.faults));
    writeFileSync(join(options.report, "summary.md"), markdownSummary(report, `npm run drill -- ${process.argv.slice(2).join(" ")}`.trim()));
    for (const line of summaryLines(report)) console.log(line);
    console.log(`(summary and chart in ${options.report}/)`);
    if (report.replaysAccepted + report.wrong + report.lost + report.unexpectedExits.length > 0) process.exitCode = 1;
  });
program
  .command("fuzz")
  .description("Mutated Mcp-Session-Id and Last-Event-ID values against live 2025 sessions, in process (and a few thousand over HTTP)")
  .option("--mutations <n>", "mutated values to send in process", count, 1_000_000)
  .option("--http <n>", "of which also over HTTP", count, 5_000)
  .option("--seed <n>", "seed of the mutations", count, 1)
  .action(async (options) => {
    const report = await runFuzz({ mutations: options.mutations, http: options.http, seed: options.seed, log: (line) => console.log(line) });
    console.log(report.line);
    if (!report.ok) process.exitCode = 1;
  });
await program.parseAsync();
