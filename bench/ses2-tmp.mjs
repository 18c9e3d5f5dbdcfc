import { idleSessions } from "./workloads/sessions.mjs";
for (const sdk of ["ours", "tmcp"]) {
  const r = await idleSessions({ count: 10000, warmup: 500, sdk });
  console.log(sdk, Math.round(r.perItemBytes));
}
