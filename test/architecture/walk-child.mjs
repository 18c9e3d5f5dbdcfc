// Run by request-walk.test.ts in a child node: serves one McpServer over HTTP from the build (dist/), and
// lists every runtime module that ran a function between the moment a tools/call reached the HTTP entry and
// the moment the tool body began, read from V8's precise coverage (call counts, reset just before the call).
// Usage: node walk-child.mjs <package root> <web|node> <2026|2025>
import { readFileSync } from "node:fs";
import { Session } from "node:inspector";
import { SourceMap } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [root, entry, generation] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(`${root}/dist/runtime/${path}`).href);
const { McpServer } = await load("server/mcp-server.js");
const { createHttpHandler } = await load("transport/http/server/web.js");
const { serveHttp } = await load("transport/http/server/node.js");

const inspector = new Session();
inspector.connect();
// The in-thread session answers synchronously, so the tool body can read the counts the moment it starts.
const post = (method, params) => {
  let answer;
  inspector.post(method, params, (error, result) => {
    if (error) throw error;
    answer = result;
  });
  return answer;
};
post("Profiler.enable");
post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

let measuring = false;
let covered;
const server = new McpServer({ name: "walk", version: "1.0.0" });
const schema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };
server.tool("add", { inputSchema: schema }, (args) => {
  if (measuring) covered = post("Profiler.takePreciseCoverage");
  return { content: [{ type: "text", text: String(args.a + args.b) }] };
});

let send;
let close = async () => {};
if (entry === "web") {
  const handle = createHttpHandler(server);
  send = (headers, body) => handle(new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(body) }));
} else {
  const http = await serveHttp(server);
  send = (headers, body) => fetch(http.url, { method: "POST", headers, body: JSON.stringify(body) });
  close = () => http.close();
}

const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
let headers;
let call;
if (generation === "2026") {
  headers = { ...base, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" };
  const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  call = (id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 }, _meta } });
} else {
  const opened = await send(base, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "walk", version: "1" } },
  });
  await opened.text();
  headers = { ...base, "mcp-session-id": opened.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-11-25" };
  await (await send(headers, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
  call = (id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } });
}

// Warm up: every lazy module loaded, every first-use cache filled, before the counted call.
for (let id = 1; id <= 20; id++) {
  const answer = await (await send(headers, call(id))).json();
  if (answer.result?.content?.[0]?.text !== "3") throw new Error(`warm-up call failed: ${JSON.stringify(answer)}`);
}
post("Profiler.takePreciseCoverage"); // resets every count
measuring = true;
const answer = await (await send(headers, call(100))).json();
if (answer.result?.content?.[0]?.text !== "3") throw new Error(`counted call failed: ${JSON.stringify(answer)}`);
await close();

const marker = `${pathToFileURL(root).href}/dist/runtime/`;
const files = new Set();
for (const script of covered.result) {
  if (!script.url.startsWith(marker)) continue;
  const ran = script.functions.filter((fn) => fn.ranges[0].count > 0);
  if (ran.length === 0) continue;
  // A built file may hold several source modules (the build bundles what the entries load, in shared chunks):
  // each function that ran counts for the .ts its source map names, so a chunk counts as every module it ran.
  const origin = sourceOf(script.url);
  for (const fn of ran) files.add(origin(fn.ranges[0].startOffset));
}
process.stdout.write(`${JSON.stringify([...files].sort())}\n`);

/** Maps an offset in the built file at `url` to the runtime .ts it came from (the file's own name without a map). */
function sourceOf(url) {
  const path = fileURLToPath(url);
  const fallback = `runtime/${url.slice(marker.length).replace(/\.js$/, ".ts")}`;
  let map;
  let lineStarts;
  try {
    const text = readFileSync(path, "utf8");
    const reference = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
    if (!reference) return () => fallback;
    map = new SourceMap(JSON.parse(readFileSync(join(dirname(path), reference), "utf8")));
    lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  } catch {
    return () => fallback;
  }
  return (offset) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    const entry = map.findEntry(line, offset - lineStarts[line]);
    const source = entry?.originalSource;
    if (!source) return fallback;
    const at = source.lastIndexOf("/runtime/");
    return at === -1 ? fallback : source.slice(at + 1);
  };
}
