// One instance of the fleet example: an MCP server configured from the
// environment the way an operator runs it. Keys come from
// MCP_REQUEST_STATE_KEYS (its key ids are logged at start), one-time tokens
// go to Redis when REDIS_URL is set, and SIGTERM drains before exiting.
//
//   PORT=3001 MCP_REQUEST_STATE_KEYS=base64url:… node dist/examples/fleet/instance.js
import { serveHttp } from "mcp-roundtrip/node";
import { inputRequired, McpServer, RequestStateSecurity, type Broadcaster, type ReplayStore } from "mcp-roundtrip/server";

const env = process.env;
const name = env.FLEET_INSTANCE ?? `instance-${process.pid}`;
const numberFrom = (key: string, fallback: number) => (env[key] === undefined ? fallback : Number(env[key]));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let replay: ReplayStore | undefined;
let broadcaster: Broadcaster | undefined;
const healthChecks: (() => boolean)[] = [];
const closers: (() => Promise<void>)[] = [];
if (env.REDIS_URL) {
  // Only instances that use Redis load the integration (and need the redis package). An outage is logged and
  // refused (fail closed), never fatal; /healthz answers 503 "degraded" until the connections are back.
  const { connectRedisBroadcaster, connectRedisReplayStore } = await import("mcp-roundtrip/ext/redis");
  const redis = { url: env.REDIS_URL, logger: console };
  // maxEntriesPerOwner bounds the spent tokens one caller holds in Redis (10,000 by default); a load test whose
  // callers are all one anonymous principal needs more (FLEET_MAX_TOKENS_PER_CALLER).
  const store = await connectRedisReplayStore(redis, {
    prefix: env.FLEET_REDIS_PREFIX ?? "fleet:",
    maxEntriesPerOwner: numberFrom("FLEET_MAX_TOKENS_PER_CALLER", 10_000),
  });
  const fleet = await connectRedisBroadcaster(redis, { channel: `${env.FLEET_REDIS_PREFIX ?? "fleet:"}subscriptions` });
  replay = store.store;
  broadcaster = fleet.broadcaster;
  healthChecks.push(store.healthy, fleet.healthy);
  closers.push(store.close, fleet.close);
}

// The audience names the service: a token another service minted with the same key is refused here.
const security = RequestStateSecurity.fromEnv(undefined, {
  audience: "fleet-provisioner",
  ttl: numberFrom("FLEET_TTL_SECONDS", 600),
  clockSkewSeconds: numberFrom("FLEET_CLOCK_SKEW_SECONDS", 60),
  replayLeaseSeconds: numberFrom("FLEET_REPLAY_LEASE_SECONDS", 30),
  ...(replay === undefined ? {} : { replay }),
});
const workMs = numberFrom("FLEET_WORK_MS", 0);

const regionForm = { type: "object" as const, properties: { region: { type: "string" as const } }, required: ["region"] };
const confirmForm = { type: "object" as const, properties: { yes: { type: "boolean" as const } }, required: ["yes"] };
const answer = (value: unknown) => value as { action?: string; content?: Record<string, unknown> } | undefined;

const server = new McpServer(
  { name: "fleet-provisioner", version: "1.0.0" },
  { requestStateSecurity: security, ...(broadcaster === undefined ? {} : { subscriptions: { broadcaster } }) },
);
server.tool("ping", {}, () => ({ content: [{ type: "text", text: `pong from ${name}` }] }));
// Three rounds, each of which may land on another instance: ask the region, then confirm, then provision.
server.tool("provision", { inputSchema: { type: "object", properties: { app: { type: "string" } }, required: ["app"] } }, async (args, ctx) => {
  if (workMs > 0) await sleep(workMs);
  const state = ctx.requestState ?? "";
  const region = answer(ctx.inputResponses?.region)?.content?.region;
  if (state === "" && region === undefined) {
    return inputRequired({
      inputRequests: { region: { method: "elicitation/create", params: { mode: "form", message: `Region for ${String(args.app)}?`, requestedSchema: regionForm } } },
      requestState: "asked-region",
    });
  }
  if (state === "asked-region" && typeof region === "string") {
    return inputRequired({
      inputRequests: {
        confirm: { method: "elicitation/create", params: { mode: "form", message: `Provision ${String(args.app)} in ${region}?`, requestedSchema: confirmForm } },
      },
      requestState: `asked-confirm:${region}`,
    });
  }
  if (state.startsWith("asked-confirm:") && answer(ctx.inputResponses?.confirm)?.content?.yes === true) {
    return { content: [{ type: "text", text: `provisioned ${String(args.app)} in ${state.slice("asked-confirm:".length)} by ${name}` }] };
  }
  return { content: [{ type: "text", text: "not provisioned" }], isError: true };
});

const handle = await serveHttp(server, {
  host: "127.0.0.1",
  port: numberFrom("PORT", 3000),
  healthPath: "/healthz",
  handleSignals: true,
  drainGraceMs: numberFrom("FLEET_DRAIN_GRACE_MS", 5_000),
  healthChecks,
  onShutdown: async () => void (await Promise.all(closers.map((close) => close()))),
});
console.error(`fleet ${name}: serving ${handle.url}`);
