import { webListeners, idleListeners } from "./workloads/listeners.mjs";
for (const sdk of ["ours", "official"]) {
  const r = await webListeners({ count: 10000, warmup: 500, sdk });
  console.log(sdk, "web", Math.round(r.perItemBytes));
}
const r = await idleListeners({ count: 10000, warmup: 500 });
console.log("ours in-proc", Math.round(r.perItemBytes));
