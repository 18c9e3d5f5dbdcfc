// Entry point run by scripts/run-codegen.mjs after compiling codegen/ to .codegen-out/.
import { main } from "./main.js";

const root = process.env.CODEGEN_ROOT ?? process.cwd();
process.exitCode = await main(root, process.argv.slice(2));
