// `npm test`: everything that must pass, in the order that fails fastest.
import { bin, run } from "./run.mjs";

run("codegen --check", process.execPath, ["scripts/run-codegen.mjs", "--check"]);
// Lint and format (biome.jsonc): any finding, warnings included, and any file Biome would format differently fails.
run("lint", bin("biome"), ["ci", "--error-on-warnings", "."]);
run("typecheck", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
// Unused files, exports and dependencies (knip.json names the entry points; a public export is used through package.json exports).
run("unused code", bin("knip"), ["--no-progress"]);

// The runtime's layers and no import circle (.dependency-cruiser.cjs); fails on any violation.
run("layers", bin("depcruise"), ["runtime", "--config", ".dependency-cruiser.cjs", "--output-type", "err"]);
run("build", process.execPath, ["scripts/build.mjs"]);
// The API reference: every public export documented, every {@link} resolved (typedoc, offline).
run("api reference", process.execPath, ["scripts/docs.mjs", "--check"]);
run("vitest", bin("vitest"), ["run"]);
// The official conformance suite against the examples built above (CLI on the pinned Node 22).
run("conformance", process.execPath, ["scripts/conformance.mjs"]);
