// `node --import ./record-imports.mjs script.mjs`: appends the URL of every
// ES module the script resolves to the file named by BENCH_IMPORT_LOG, so
// the bench can say which modules a cold start loaded (the timed spawns run
// without it: the hook costs start-up time of its own).
import { register } from "node:module";

register("./record-imports-hook.mjs", import.meta.url, { data: { log: process.env.BENCH_IMPORT_LOG } });
