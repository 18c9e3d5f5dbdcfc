// Where ours's cost above the floor sits, layer by layer: three servers of
// the same plain tools/call (2026-07-28, echo + add), each in a pinned process
// of its own, driven by the bench's raw load client in interleaved rounds:
//
//   floor     bare node:http, JSON in, the answer out (workloads/echo.mjs)
//   protocol  the same bare node:http with our McpServer behind it
//             (workloads/protocol-only.mjs): our protocol layer alone
//   ours      serveHttp: our HTTP layer too (the header rules, Host and
//             Origin, the bounded body read, the answer's context)
//
// and, with no sockets at all, the floor's JSON work against our protocol
// layer's per call in this process (decode, classify, the request path, both
// schemas, the result, the answer's JSON), which is what the protocol layer
// costs when its code and data stay in the core's caches.
//
//   npm run build && node bench/layers.mjs [--rounds N] [--concurrency C] [--seconds S]
//
// Medians of the rounds; on a shared machine read the paired ratios, not the µs.
import { parseArgs } from "node:util";
import { driveFor as drive } from "./lib/drive.mjs";
import { rawToolsClient } from "./lib/raw-client.mjs";
import { startServerProcess } from "./lib/server-process.mjs";
import { benchServer } from "./workloads/ours.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const SERVERS = [
  { name: "floor", module: here("./workloads/echo.mjs"), factory: "echoServer", options: {} },
  { name: "protocol", module: here("./workloads/protocol-only.mjs"), factory: "protocolOnlyServer", options: {} },
  { name: "ours", module: here("./workloads/ours.mjs"), factory: "serveBench", options: { legacy: false } },
];

/** Server CPU per call (µs) of one server over one window, after a warm-up. */
async function overSockets({ module, factory, options }, concurrency, seconds) {
  const remote = await startServerProcess(module, factory, options);
  try {
    const client = await rawToolsClient(remote.url, { era: "2026-07-28" });
    await drive(client.call, concurrency, Math.min(2000, seconds * 500));
    const before = await remote.cpuMicros();
    const calls = await drive(client.call, concurrency, seconds * 1000);
    const micros = (await remote.cpuMicros()) - before;
    client.close();
    return micros / calls;
  } finally {
    await remote.close();
  }
}

/** The floor's JSON work and our protocol layer per call in this process, µs each, interleaved. */
async function inProcess(calls) {
  const server = benchServer();
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const bodies = [
    Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hello" }, _meta: meta } })),
    Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 19, b: 23 }, _meta: meta } })),
  ];
  const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
  const context = { protocolVersionHeader: "2026-07-28" };
  const floor = async (n) => {
    for (let i = 0; i < n; i++) {
      const message = JSON.parse(bodies[i & 1].toString("utf8"));
      const args = message.params.arguments;
      const text = message.params.name === "add" ? String(args.a + args.b) : args.text;
      const response = await Promise.resolve({ jsonrpc: "2.0", id: message.id, result: { resultType: "complete", content: [{ type: "text", text }] } });
      if (JSON.stringify(response).length < 50) throw new Error("the floor answered nothing");
    }
  };
  const ours = async (n) => {
    for (let i = 0; i < n; i++) {
      const response = await server.handle(JSON.parse(strictUtf8.decode(bodies[i & 1])), context);
      if (!("result" in response)) throw new Error(`ours answered ${JSON.stringify(response)}`);
      JSON.stringify(response);
    }
  };
  const timed = async (work) => {
    const start = process.cpuUsage();
    await work(calls);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / calls;
  };
  await floor(calls);
  await ours(calls);
  return { floor: await timed(floor), ours: await timed(ours) };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, concurrency: { type: "string", default: "16" }, seconds: { type: "string", default: "5" } },
});
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const seconds = Number(values.seconds);
for (const [flag, value] of [
  ["--rounds", rounds],
  ["--concurrency", concurrency],
  ["--seconds", seconds],
]) {
  if (!(value > 0)) throw new TypeError(`${flag} needs a positive number, got ${values[flag.slice(2)]}`);
}

const perServer = Object.fromEntries(SERVERS.map((server) => [server.name, []]));
const inProcessRounds = [];
for (let round = 0; round < rounds; round++) {
  for (const server of SERVERS) perServer[server.name].push(await overSockets(server, concurrency, seconds));
  inProcessRounds.push(await inProcess(Math.max(2000, Math.round(seconds * 20_000))));
  console.log(`round ${round + 1}: ${SERVERS.map(({ name }) => `${name} ${perServer[name].at(-1).toFixed(1)}`).join(", ")} µs per call over sockets`);
}
const paired = (name) => median(perServer[name].map((value, i) => value / perServer.floor[i]));
const floor = median(perServer.floor);
console.log(`\nserver CPU per call, c=${concurrency}, median of ${rounds} rounds (paired ratio to the floor):`);
for (const { name } of SERVERS)
  console.log(`  ${name.padEnd(9)} ${median(perServer[name]).toFixed(1).padStart(6)} µs  ${name === "floor" ? "" : `${paired(name).toFixed(2)}×`}`);
const floorInProcess = median(inProcessRounds.map((r) => r.floor));
const oursInProcess = median(inProcessRounds.map((r) => r.ours));
console.log(`\nin this process, no sockets: the floor's JSON work ${floorInProcess.toFixed(2)} µs, our protocol layer ${oursInProcess.toFixed(2)} µs per call`);
console.log(
  `over sockets the protocol layer added ${(median(perServer.protocol) - floor).toFixed(1)} µs, our HTTP layer ${(median(perServer.ours) - median(perServer.protocol)).toFixed(1)} µs more`,
);
