// One instance of the drill fleet: an MCP server run the way an operator
// runs it. Keys come from a file (DRILL_KEYS_FILE, re-read at each start:
// a rotation rewrites the file and restarts the instances), one-time tokens
// and subscription events go through Redis (REDIS_URL, or
// DRILL_REDIS_CLUSTER for a Redis Cluster), SIGTERM drains before exiting.
//
// Its tools are the drill's workload: `echo` (plain), `mrtr` (1-3 rounds of
// elicitation or sampling, as the `plan` argument says), `touch` (toggles a
// tool: list-changed for every listener of the fleet), `slow_task` (task
// augmented), `drill_stats` (RSS and open handles, after a GC).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { serveHttp } from "mcp-roundtrip/node";
import { inputRequired, McpServer, RequestStateSecurity, type Broadcaster, type ReplayStore } from "mcp-roundtrip/server";
import { expectedAnswer, questionText } from "./answers.js";

const env = process.env;
const name = env.FLEET_INSTANCE ?? `instance-${process.pid}`;
const numberFrom = (key: string, fallback: number) => (env[key] === undefined ? fallback : Number(env[key]));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let replay: ReplayStore | undefined;
let broadcaster: Broadcaster | undefined;
const healthChecks: (() => boolean)[] = [];
const closers: (() => Promise<void>)[] = [];
if (env.REDIS_URL || env.DRILL_REDIS_CLUSTER) {
  const { connectRedisBroadcaster, connectRedisReplayStore } = await import("mcp-roundtrip/ext/redis");
  const target = env.DRILL_REDIS_CLUSTER
    ? { cluster: { rootNodes: env.DRILL_REDIS_CLUSTER.split(",").map((address) => ({ url: `redis://${address}` })) }, logger: console }
    : { url: env.REDIS_URL, logger: console };
  const prefix = env.DRILL_REDIS_CLUSTER ? "{drill}:" : "drill:";
  const store = await connectRedisReplayStore(target, { prefix, maxEntriesPerOwner: 0 });
  const fleet = await connectRedisBroadcaster(target, { channel: `${prefix}subscriptions` });
  replay = store.store;
  broadcaster = fleet.broadcaster;
  healthChecks.push(store.healthy, fleet.healthy);
  closers.push(store.close, fleet.close);
}

const security = await RequestStateSecurity.fromFile(env.DRILL_KEYS_FILE ?? "keys", {
  audience: "drill",
  ttl: numberFrom("FLEET_TTL_SECONDS", 600),
  clockSkewSeconds: numberFrom("FLEET_CLOCK_SKEW_SECONDS", 60),
  replayLeaseSeconds: numberFrom("FLEET_REPLAY_LEASE_SECONDS", 30),
  ...(replay === undefined ? {} : { replay }),
});

const server = new McpServer(
  { name: "drill", version: "1.0.0" },
  {
    requestStateSecurity: security,
    legacyInputRequired: "shim",
    tasks: { pollIntervalMs: 20, ttlMs: 60_000 },
    ...(broadcaster === undefined ? {} : { subscriptions: { broadcaster } }),
  },
);
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const idArgs = { type: "object" as const, properties: { id: { type: "string" as const } }, required: ["id"] };
const valueForm = { type: "object" as const, properties: { value: { type: "string" as const } }, required: ["value"] };

server.tool("echo", { inputSchema: idArgs }, (args) => text(`echo ${String(args.id)}`));

// Round k asks question q<k>, of the kind plan[k] ("e" elicitation, "s" sampling); the answers so far travel in the sealed state.
server.tool(
  "mrtr",
  { inputSchema: { type: "object", properties: { id: { type: "string" }, plan: { type: "string", pattern: "^[es]{1,3}$" } }, required: ["id", "plan"] } },
  (args, ctx) => {
    const id = String(args.id);
    const plan = String(args.plan);
    const answers = ctx.requestState ? (JSON.parse(ctx.requestState) as string[]) : [];
    const response = ctx.inputResponses?.[`q${answers.length}`] as { content?: { value?: unknown; text?: unknown } } | undefined;
    if (response !== undefined) {
      const value = plan[answers.length] === "e" ? response.content?.value : response.content?.text;
      if (value !== expectedAnswer(id, answers.length)) return { ...text(`wrong answer to q${answers.length}: ${String(value)}`), isError: true };
      answers.push(value);
    }
    if (answers.length === plan.length) return text(`mrtr ${id} ${answers.join(",")}`);
    const k = answers.length;
    const message = questionText(id, k);
    const request =
      plan[k] === "e"
        ? { method: "elicitation/create" as const, params: { mode: "form" as const, message, requestedSchema: valueForm } }
        : {
            method: "sampling/createMessage" as const,
            params: { messages: [{ role: "user" as const, content: { type: "text" as const, text: message } }], maxTokens: 16 },
          };
    return inputRequired({ inputRequests: { [`q${k}`]: request }, requestState: JSON.stringify(answers) });
  },
);

server.tool("extra", {}, () => text("extra"));
let extraOn = true;
server.tool("touch", {}, () => {
  extraOn = !extraOn;
  server.setToolEnabled("extra", extraOn);
  return text("touched");
});

// What a slow reader asks for: `count` log notifications of 16 KiB on the request's stream, none awaited, so a reader
// that does not read makes the stream's buffer grow until the instance cuts it (maxStreamBufferBytes).
const chunk = "x".repeat(16 * 1024);
server.tool("flood", { inputSchema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] } }, (args, ctx) => {
  for (let i = 0; i < Number(args.count) && !ctx.signal.aborted; i++) {
    void ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: chunk } }).catch(() => {});
  }
  return text(`flooded ${ctx.signal.aborted ? "and cut" : "in full"}`);
});

server.tool("slow_task", { inputSchema: idArgs, task: "optional" }, async (args) => {
  await sleep(20);
  return text(`task ${String(args.id)}`);
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
server.tool("drill_stats", {}, () => {
  gc();
  const handles = process.getActiveResourcesInfo().filter((kind) => kind !== "Timeout" && kind !== "Immediate").length;
  return text(JSON.stringify({ name, pid: process.pid, rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed, handles }));
});

const handle = await serveHttp(server, {
  host: "127.0.0.1",
  port: numberFrom("PORT", 3000),
  healthPath: "/healthz",
  handleSignals: true,
  drainGraceMs: numberFrom("FLEET_DRAIN_GRACE_MS", 5_000),
  // Small, so the drill's slow readers reach it: their streams are closed, the instance holds no more.
  maxStreamBufferBytes: numberFrom("DRILL_STREAM_BUFFER_BYTES", 64 * 1024),
  healthChecks,
  onShutdown: async () => void (await Promise.all(closers.map((close) => close()))),
});
console.error(`drill ${name}: serving ${handle.url}`);
