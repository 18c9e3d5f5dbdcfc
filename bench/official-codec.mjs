// Their requestState codec against ours, both driven through THEIR seam: the
// official SDK's `RequestStateCodec` interface (`mint(payload, ctx)` then
// `verify(token, ctx)`, the calls their McpServer and handler make), with the
// same 300-byte payload and the same handler ctx, side by side in one run.
//
//   npm run build && node bench/official-codec.mjs [--seconds 8] [--slices 8] [--json] [--out FILE]
//
// Writes bench/RESULTS-official-codec.md (or --out). Contenders run in
// interleaved slices and each keeps its best slice (a noisy neighbour on a
// shared machine skews all alike); CPU µs per op counts every thread, so the
// work their codec hands to the Web Crypto thread pool is included.
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import { timedSlice } from "./lib/drive.mjs";
import { writeResultsSection } from "./lib/sections.mjs";
import { stateOf300Bytes } from "./workloads/fixtures.mjs";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc");

/** Where the report goes unless --out says otherwise. */
const DEFAULT_OUT = new URL("./RESULTS-official-codec.md", import.meta.url).pathname;

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "8" },
    slices: { type: "string", default: "8" },
    json: { type: "boolean", default: false },
    out: { type: "string", default: DEFAULT_OUT },
    dist: { type: "string", default: new URL("../dist/runtime/ext/official/index.js", import.meta.url).href },
  },
});
const { createSealedRequestStateCodec, RequestStateSecurity } = await import(values.dist).catch((error) => {
  console.error(`Cannot load ${values.dist} (${error.message}). Run \`npm run build\` first.`);
  process.exit(1);
});

const seconds = Number(values.seconds);
const slices = Number(values.slices);
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const payload = stateOf300Bytes();
const ARGS = { name: "orders", region: "eu-west-1", replicas: 3 };

/** The handler ctx their server builds for a tools/call over HTTP, its body captured the way codec.capture does in a real server. */
async function handlerCtx(capture) {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "provision", arguments: ARGS } };
  const req = new Request("http://127.0.0.1/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (capture) await capture(async () => new Response())(req);
  const authInfo = { token: "t", clientId: "client-123", scopes: [], extra: { iss: "https://as.example", sub: "alice" } };
  return { mcpReq: { id: 1, method: "tools/call" }, http: { authInfo, req } };
}

const ours = (crypto) => createSealedRequestStateCodec(new RequestStateSecurity({ keys: [SECRET] }, { crypto, logger: { warn() {} } }), { audience: "bench" });
const contenders = [
  { name: "theirs: createRequestStateCodec (HMAC)", official: true, codec: createRequestStateCodec({ key: SECRET }), binds: "nothing (their default)" },
  {
    name: "theirs: HMAC + bind(method, clientId)",
    codec: createRequestStateCodec({ key: SECRET, bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ""}` }),
    binds: "method, clientId (their documented `bind` example)",
  },
  { name: "ours: createSealedRequestStateCodec, node:crypto", codec: ours("node"), binds: "method, tool, argument digest, principal, audience", capture: true },
  { name: "ours: createSealedRequestStateCodec, @noble/ciphers", codec: ours("noble"), binds: "method, tool, argument digest, principal, audience", capture: true },
];
for (const contender of contenders) contender.ctx = await handlerCtx(contender.capture ? contender.codec.capture : undefined);

/** One mint + verify through their interface. */
async function once({ codec, ctx }) {
  const token = await codec.mint(payload, ctx);
  const back = await codec.verify(token, ctx);
  if (back.note !== payload.note) throw new Error("round trip lost the payload");
}

/** What a client holding the token can read of the payload (the `user` field, sealed in every token). */
async function inspect(contender) {
  const token = await contender.codec.mint(payload, contender.ctx);
  const decoded = token
    .split(".")
    .map((part) => Buffer.from(part, "base64url").toString("latin1"))
    .join(".");
  return { tokenBytes: Buffer.byteLength(token), readable: decoded.includes(payload.user) };
}

const started = new Date();
const load = loadavg()
  .map((v) => v.toFixed(2))
  .join(" ");
for (const contender of contenders) {
  Object.assign(contender, await inspect(contender));
  const deadline = performance.now() + Math.min(2000, seconds * 250);
  while (performance.now() < deadline) await once(contender); // warm-up
  contender.best = { opsPerSecond: 0, cpuMicroseconds: Infinity };
}
for (let round = 0; round < slices; round++) {
  for (const contender of contenders) {
    collectGarbage();
    const result = await timedSlice(() => once(contender), (seconds * 1000) / slices / contenders.length, 100);
    contender.best.opsPerSecond = Math.max(contender.best.opsPerSecond, result.opsPerSecond);
    contender.best.cpuMicroseconds = Math.min(contender.best.cpuMicroseconds, result.cpuMicroseconds);
  }
}

const base = contenders.find((c) => c.official).best;
const results = contenders.map((c) => ({
  contender: c.name,
  opsPerSecond: Math.round(c.best.opsPerSecond),
  microsecondsPerOp: Number((1e6 / c.best.opsPerSecond).toFixed(2)),
  cpuMicrosecondsPerOp: Number(c.best.cpuMicroseconds.toFixed(2)),
  speedupVsOfficial: Number((c.best.opsPerSecond / base.opsPerSecond).toFixed(2)),
  cpuSpeedupVsOfficial: Number((base.cpuMicroseconds / c.best.cpuMicroseconds).toFixed(2)),
  tokenBytes: c.tokenBytes,
  payloadReadable: c.readable,
  binds: c.binds,
}));

const markdown = renderMarkdown(results);
writeFileSync(values.out, markdown);
// The default run also puts its table in RESULTS.md, beside the other figures.
if (values.out === DEFAULT_OUT) writeResultsSection("official-codec", "bench/official-codec.mjs", markdown.replace(/^# /, "## "));
if (values.json) console.log(JSON.stringify(results, null, 2));
else
  for (const r of results)
    console.log(
      `${r.contender.padEnd(52)} ${r.microsecondsPerOp.toFixed(2).padStart(8)} µs/op wall ${r.cpuMicrosecondsPerOp.toFixed(2).padStart(8)} µs/op CPU  ${r.speedupVsOfficial}× theirs`,
    );

function renderMarkdown(rows) {
  const cpu = cpus();
  const lines = [
    "# Request-state codecs through the official SDK's seam",
    "",
    `Generated by \`node bench/official-codec.mjs\` on ${started.toISOString()}; rerun it rather than editing this file.`,
    "",
    `- Node ${process.version}, ${process.platform} ${process.arch}, ${cpu[0]?.model.trim() ?? "unknown CPU"} × ${cpu.length}; load average at start ${load}; ${seconds} s in ${slices} interleaved slices per contender, best slice kept.`,
    "- One operation: `codec.mint(payload, ctx)` then `codec.verify(token, ctx)`, exactly the calls their handler and their `ServerOptions.requestState.verify` seam make, for a payload whose compact JSON is 300 bytes and the ctx their server builds for an authenticated `tools/call` over HTTP.",
    "- Ours reads the tool name and arguments from the request `codec.capture` remembered (their ctx carries neither); that capture is one JSON parse per HTTP request, which their handler then skips (it is handed `parsedBody`), so it is not in the figures.",
    '- "Payload readable" is measured: the token is base64url-decoded and searched for a field of the payload.',
    "",
    "| contender | µs per mint + verify (wall) | CPU µs per op | ops/s | vs their HMAC (wall) | vs their HMAC (CPU) | token bytes | payload readable by the client | bound to |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.contender} | ${r.microsecondsPerOp.toFixed(1)} | ${r.cpuMicrosecondsPerOp.toFixed(1)} | ${r.opsPerSecond.toLocaleString("en-US")} | ${r.speedupVsOfficial.toFixed(2)}× | ${r.cpuSpeedupVsOfficial.toFixed(2)}× | ${r.tokenBytes} | ${r.payloadReadable ? "yes" : "no"} | ${r.binds} |`,
    ),
    "",
  ];
  return `${lines.join("\n")}\n`;
}
