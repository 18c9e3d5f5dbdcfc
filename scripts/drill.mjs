// `npm run drill`: builds the package (the drill's instances run from dist/),
// then runs the drill (drill/main.ts): nginx, three instances and Redis on
// 127.0.0.1 under a seeded workload and seeded faults. Extra arguments go to
// the drill (e.g. `npm run drill -- --exchanges 100000`, `npm run drill -- fuzz`).
import { run } from "./run.mjs";

run("build", process.execPath, ["scripts/build.mjs"]);
run("drill", process.execPath, ["dist/drill/main.js", ...process.argv.slice(2)]);
