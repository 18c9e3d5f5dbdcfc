import { clientFetch } from "./lib/keepalive-fetch.mjs";
import { toolsCallRequest } from "./workloads/fixtures.mjs";
const [url, ms, c] = process.argv.slice(2);
const f = clientFetch("keepalive");
const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "echo",
};
const t0 = performance.now();
let n = 0;
await Promise.all(
  Array.from({ length: Number(c) }, async () => {
    while (performance.now() - t0 < Number(ms)) {
      const r = await f.fetch(url, { method: "POST", headers, body: JSON.stringify(toolsCallRequest(n + 1)) });
      const j = await r.json();
      if (j.result?.content?.[0]?.text !== "hello") throw new Error(JSON.stringify(j));
      n++;
    }
  }),
);
console.log("calls", n, Math.round(n / (Number(ms) / 1000)), "/s");
f.close();
