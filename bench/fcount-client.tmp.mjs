import { rawToolsClient } from "./lib/raw-client.mjs";
const [url, era, session, n] = process.argv.slice(2);
const c = await rawToolsClient(url, { era, session: session === "true" });
for (let i = 0; i < 3000; i++) await c.call();
process.send("warm");
process.once("message", async () => { for (let i = 0; i < Number(n); i++) await c.call(); process.send("done"); });
