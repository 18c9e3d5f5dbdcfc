// Runs one bundled module worker in real workerd through Miniflare, on
// 127.0.0.1, until SIGTERM. Started by test/worker under the Node 22 pinned
// in tools/conformance (Miniflare's engines field asks for Node ≥ 22).
//   node miniflare-child.mjs <bundle.js> <compatibility date>
// Bindings come from MINIFLARE_BINDINGS (a JSON object of strings).
// Prints `listening <url>` once workerd accepts requests.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { Miniflare } from "miniflare";

const [scriptPath, compatibilityDate] = process.argv.slice(2);
const bindings = JSON.parse(process.env.MINIFLARE_BINDINGS ?? "{}");
const mf = new Miniflare({
  // The bundle is one module, named as wrangler names it: listing it here
  // (rather than `scriptPath`) keeps Miniflare from walking its imports,
  // which refuses the bundle's guarded dynamic import of node builtins.
  modules: [{ type: "ESModule", path: scriptPath, contents: readFileSync(scriptPath, "utf8") }],
  modulesRoot: dirname(scriptPath),
  compatibilityDate,
  bindings,
  host: "127.0.0.1",
  port: 0,
});
const url = await mf.ready;
console.log(`listening ${new URL("/mcp", url).href} (workerd via Miniflare)`);
process.once("SIGTERM", () => {
  void mf.dispose().finally(() => process.exit(0));
});
