import { serveBench } from "./workloads/ours.mjs";
import { echoServer } from "./workloads/echo.mjs";
const kind = process.argv[2];
const s = kind === "echo" ? await echoServer() : await serveBench({ legacy: kind === "legacy" });
console.log(s.url);
process.on("SIGINT", async () => {
  await s.close();
  process.exit(0);
});
setTimeout(
  async () => {
    await s.close();
    process.exit(0);
  },
  Number(process.argv[3] ?? 12000),
);
