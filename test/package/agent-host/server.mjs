// The server the agent-host test runs its host against, from the installed
// tarball: one McpServer serving 2026-07-28 and 2025 sessions alike, over
// stdio or (with --http) Streamable HTTP on a free port, whose URL it prints
// as the first line on stdout. Each tool appends what happened to it, as a
// JSON line with the `tag` argument it was called with, to the file after
// --log: whether its request was cancelled is what the server saw, whatever
// the host printed. With --silent it is a
// server that never answers: it reads every message (noting each method) and
// replies to none, over stdio or, with --http, as an endpoint that accepts
// each request and never responds.
//
//   node server.mjs --log <file> [--http] [--silent]
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { serveHttp, serveStdio } from "mcp-roundtrip/node";
import { elicit, McpServer } from "mcp-roundtrip/server";

const { values } = parseArgs({
  options: { log: { type: "string" }, http: { type: "boolean", default: false }, silent: { type: "boolean", default: false } },
});
const record = (event) => appendFileSync(values.log, `${JSON.stringify(event)}\n`);
const methodOf = (text) => {
  try {
    return JSON.parse(text).method;
  } catch {
    return undefined;
  }
};

if (values.silent && values.http) {
  const silent = createServer((req) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => record({ silent: req.method, path: req.url, method: methodOf(body) }));
  });
  silent.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${silent.address().port}/mcp`));
} else if (values.silent) {
  let buffer = "";
  process.stdin.on("data", (chunk) => {
    buffer += chunk;
    for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n")) {
      record({ silent: "stdio", method: methodOf(buffer.slice(0, newline)) });
      buffer = buffer.slice(newline + 1);
    }
  });
  // A well-behaved server exits at the end of its input.
  process.stdin.on("end", () => process.exit(0));
}

const mcp = new McpServer({ name: "agent-host-peer", version: "1.0.0" });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Why a request's signal aborted, as the transport put it: a cancel from the client, or the wire going away. */
const reasonOf = (signal) => (signal.reason instanceof Error ? signal.reason.message : String(signal.reason));
const tagged = (properties = {}) => ({ type: "object", properties: { tag: { type: "string" }, ...properties } });

// Reports progress every `every` ms for `ms` in all; notes whether its request was cancelled first.
mcp.tool("work", { inputSchema: tagged({ ms: { type: "number" }, every: { type: "number" } }) }, async ({ ms = 1_000, every = 50, tag }, ctx) => {
  const steps = Math.max(1, Math.round(ms / every));
  for (let step = 1; step <= steps; step++) {
    if (ctx.signal.aborted) {
      record({ tool: "work", tag, cancelled: true, step, reason: reasonOf(ctx.signal) });
      return { content: [{ type: "text", text: "cancelled" }] };
    }
    await ctx.progress(step, steps);
    await sleep(every);
  }
  record({ tool: "work", tag, cancelled: false });
  return { content: [{ type: "text", text: `worked ${steps} steps` }] };
});

// Never answers on its own: it waits until its request is cancelled, and notes that it was.
mcp.tool("hang", { inputSchema: tagged() }, async ({ tag }, ctx) => {
  await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
  record({ tool: "hang", tag, cancelled: true, reason: reasonOf(ctx.signal) });
  return { content: [{ type: "text", text: "cancelled" }] };
});

// Dies mid-call, after one progress notification: over stdio, the connection cut under the call.
mcp.tool("crash", { inputSchema: tagged() }, async ({ tag }, ctx) => {
  await ctx.progress(1, 2);
  record({ tool: "crash", tag });
  process.exit(1);
});

// Asks the user a question: an InputRequiredResult for a 2026-07-28 client, elicitation/create over a 2025 session.
const regionForm = { type: "object", properties: { region: { type: "string" } }, required: ["region"] };
mcp.tool(
  "ask",
  { inputSchema: tagged(), needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })) },
  ({ tag }, { region }) => {
    record({ tool: "ask", tag, answered: region.action });
    return { content: [{ type: "text", text: region.action === "accept" ? `Provisioned in ${region.content.region}` : "Not provisioned" }] };
  },
);

if (values.silent) {
  // Serving nothing: above.
} else if (values.http) {
  const http = await serveHttp(mcp, { port: 0 });
  console.log(http.url);
  process.once("SIGTERM", () => void http.close().then(() => process.exit(0)));
} else {
  await serveStdio(mcp).closed;
}
