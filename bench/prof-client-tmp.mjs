import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { clientFetch } from "./lib/keepalive-fetch.mjs";
const [url, mode, ms, c] = process.argv.slice(2);
const f = clientFetch("keepalive");
const client = await Client.connect(new StreamableHttpClientTransport(url, { fetch: f.fetch }), { mode, clientInfo: { name: "bench-client", version: "1.0.0" } });
const t0 = performance.now();
let n = 0;
await Promise.all(
  Array.from({ length: Number(c) }, async () => {
    while (performance.now() - t0 < Number(ms)) {
      await client.callTool("echo", { text: "hello" });
      n++;
    }
  }),
);
console.log("calls", n, Math.round(n / (Number(ms) / 1000)), "/s");
await client.close();
f.close();
