// `node --require ./report-cpu.cjs …`: when the process exits, writes the CPU
// time it used (user + system, every thread, since it started) to stderr, so
// the cold-start bench can read it beside the wall clock. CommonJS, so that a
// bare `node -e ""` does not start the ES module loader because of it.
"use strict";

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\nBENCH_CPU_MS ${(user + system) / 1000}\n`);
});
