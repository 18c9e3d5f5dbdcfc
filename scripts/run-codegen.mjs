// `npm run codegen [-- --check …]`: compiles codegen/ (see compile-codegen.mjs), then runs it.
import { compileCodegen, root } from "./compile-codegen.mjs";

const started = performance.now();
const { fresh } = compileCodegen("codegen");
const compileSeconds = ((performance.now() - started) / 1000).toFixed(2);
const { main } = await import(new URL("../.codegen-out/main.js", import.meta.url).href);
process.chdir(root);
const code = await main(root, process.argv.slice(2));
console.error(`codegen: compile ${fresh ? "skipped (codegen/ unchanged)" : `${compileSeconds}s`}, total ${((performance.now() - started) / 1000).toFixed(2)}s`);
process.exit(code);
