import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { clientFetch } from "./lib/keepalive-fetch.mjs";
const [url, ms, c] = process.argv.slice(2);
const f = clientFetch("keepalive");
const client = await Client.connect(new StreamableHttpClientTransport(url, { fetch: f.fetch }), {
  mode: "2025-11-25",
  clientInfo: { name: "b", version: "1" },
  onElicit: async () => ({ action: "accept", content: { confirm: true } }),
});
const t0 = performance.now();
let n = 0;
await Promise.all(
  Array.from({ length: Number(c) }, async () => {
    while (performance.now() - t0 < Number(ms)) {
      const r = await client.callTool("ask", { text: "hello" });
      if (r.content[0].text !== "confirmed:hello") throw new Error(JSON.stringify(r));
      n++;
    }
  }),
);
console.log("calls", n);
await client.close();
f.close();
