// `npm run schema:fetch [-- --revision REV]`: puts the pinned schema files into the cache (codegen/fetch-main.ts).
import { compileCodegen, root } from "./compile-codegen.mjs";

compileCodegen("schema:fetch");
const { fetchMain } = await import(new URL("../.codegen-out/fetch-main.js", import.meta.url).href);
process.exit(await fetchMain(root, process.argv.slice(2)));
