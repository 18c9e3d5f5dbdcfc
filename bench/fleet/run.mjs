// Throughput through nginx: plain and MRTR (three-round) tool calls against
// the fleet example (three instances behind nginx round-robin on 127.0.0.1),
// beside the same calls sent straight to one instance. Bounded: a fixed
// window per row and an operation cap. Writes bench/fleet/RESULTS.md and
// the marked fleet section of bench/RESULTS.md.
//
//   npm run build && node bench/fleet/run.mjs [--seconds 3] [--concurrency 16]
import { spawnSync } from "node:child_process";
import { accessSync, constants, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { writeResultsSection } from "../lib/sections.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const { Fleet } = await import(`${root}dist/examples/fleet/fleet.js`);
const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const SECONDS = argument("seconds", 3);
const CONCURRENCY = argument("concurrency", 16);
const MAX_OPS = 200_000;

function find(program) {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"]) {
    try {
      accessSync(`${dir}/${program}`, constants.X_OK);
      return `${dir}/${program}`;
    } catch {}
  }
  throw new Error(`${program} is not installed: apt-get install -y ${program}`);
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function call(url, name, args, extra = {}) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, ...extra, _meta: META } });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": name,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => {
          const message = JSON.parse(text);
          if (res.statusCode !== 200 || message.error) reject(new Error(`${res.statusCode} ${text.slice(0, 100)}`));
          else resolve(message.result);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const plain = (url) => call(url, "ping", {});
async function mrtr(url) {
  const args = { app: "bench" };
  const first = await call(url, "provision", args);
  const second = await call(url, "provision", args, {
    requestState: first.requestState,
    inputResponses: { region: { action: "accept", content: { region: "eu" } } },
  });
  const done = await call(url, "provision", args, { requestState: second.requestState, inputResponses: { confirm: { action: "accept", content: { yes: true } } } });
  if (!String(done.content?.[0]?.text).startsWith("provisioned bench")) throw new Error(`unexpected ${JSON.stringify(done)}`);
}

async function measure(operation, url) {
  for (let i = 0; i < 200; i++) await operation(url); // warm up
  let ops = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline && ops < MAX_OPS) {
        await operation(url);
        ops++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return ops / seconds;
}

const key = `base64url:${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
const fleet = await Fleet.start({ nginx: find("nginx"), instanceScript: `${root}dist/examples/fleet/instance.js` }, { keys: key });
const rows = [];
try {
  const direct = `http://127.0.0.1:${fleet.instances[0].port}/mcp`;
  rows.push(["plain tools/call", "nginx → 3 instances", await measure(plain, fleet.url)]);
  rows.push(["plain tools/call", "one instance, no proxy", await measure(plain, direct)]);
  rows.push(["MRTR call (3 rounds, sealed state)", "nginx → 3 instances", await measure(mrtr, fleet.url)]);
  rows.push(["MRTR call (3 rounds, sealed state)", "one instance, no proxy", await measure(mrtr, direct)]);
} finally {
  agent.destroy();
  await fleet.stop();
}

const nginxVersion = spawnSync(find("nginx"), ["-v"], { encoding: "utf8" }).stderr.trim().replace("nginx version: ", "");
const section = [
  "## Through nginx (fleet example)",
  "",
  `Calls per second, concurrency ${CONCURRENCY}, one ${SECONDS} s window per row after a warm-up, ${cpus().length} cores, Node ${process.version}, ${nginxVersion}.`,
  "Three instances of `examples/fleet/instance.ts` behind nginx round-robin (no stickiness, a new upstream connection per request),",
  'client keep-alive to nginx; "one instance" is the same client straight to one instance. An MRTR call is three requests,',
  "each round possibly answered by another instance. One run, not a median: `node bench/fleet/run.mjs` to reproduce.",
  "",
  "| workload | path | calls/s |",
  "|---|---|---:|",
  ...rows.map(([workload, path, rate]) => `| ${workload} | ${path} | ${Math.round(rate).toLocaleString("en-US")} |`),
].join("\n");
writeFileSync(`${root}bench/fleet/RESULTS.md`, `# Fleet throughput\n\n${section}\n`);
writeResultsSection("fleet", "bench/fleet/run.mjs", section);
console.log(section);
