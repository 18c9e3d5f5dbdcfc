import { serveBench } from "./workloads/ours.mjs";
const s = await serveBench({ legacy: process.argv[2] === "legacy" });
console.log(s.url);
setTimeout(
  async () => {
    await s.close();
    process.exit(0);
  },
  Number(process.argv[3] ?? 12000),
);
