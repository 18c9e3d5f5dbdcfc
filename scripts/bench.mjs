// `npm run bench`: builds the package (the bench imports mcp-roundtrip/* from
// dist/ through the package's own exports), then runs every workload side by
// side with the official SDK and writes bench/RESULTS.md and bench/chart.svg.
// Extra arguments go to bench/run.mjs (e.g. `npm run bench -- --only seal`).
// Then the browser bundle sizes, ours beside theirs (bench/bundle-size.mjs, a
// few seconds), which write their own section of RESULTS.md.
import { run } from "./run.mjs";

run("build", process.execPath, ["scripts/build.mjs"]);
run("bench", process.execPath, ["bench/run.mjs", ...process.argv.slice(2)]);
run("bundle size", process.execPath, ["bench/bundle-size.mjs"]);
