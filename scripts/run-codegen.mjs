// `npm run codegen [-- --check …]`: compiles codegen/ (TypeScript) into the
// gitignored .codegen-out/ with the local tsc, then runs it. Node 20 cannot
// run .ts directly; tsc (native) keeps this step well under a second.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { bin } from "./run.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const started = performance.now();
const compiled = spawnSync(bin("tsc"), ["-p", "codegen/tsconfig.json"], { cwd: root, stdio: "inherit" });
if (compiled.status !== 0) {
  console.error("codegen: compiling codegen/ failed (see tsc output above)");
  process.exit(compiled.status ?? 1);
}
const compileSeconds = ((performance.now() - started) / 1000).toFixed(2);
const { main } = await import(new URL("../.codegen-out/main.js", import.meta.url).href);
process.chdir(root);
const code = await main(root, process.argv.slice(2));
console.error(`codegen: compile ${compileSeconds}s, total ${((performance.now() - started) / 1000).toFixed(2)}s`);
process.exit(code);
