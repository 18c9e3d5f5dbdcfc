// Conformance step of `npm test`: runs the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in tools/conformance) against the
// everything-server and everything-client examples, with the 2026-07-28
// requirement set; the server leg also runs the 2025-11-25 set against the same
// running server, since one endpoint serves both generations, and the client
// leg runs the 2025-11-25 set too. The server leg also holds each set's
// unscored scenarios (the tasks extension, pending ones) to passing and
// reports their count. The CLI runs under the Node 22 pinned
// there; the examples run under this Node (the SDK supports Node 20), from
// the built dist/.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureTools } from "./run.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tools = join(root, "tools/conformance");
const cli = join(tools, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const node22 = join(tools, "node_modules/node/bin/node");
const revision = "2026-07-28";
/** Requirement sets the server leg runs, each at its own wire version, against one server process. */
const serverRevisions = [revision, "2025-11-25"];
/** The requirement sets the client leg runs: the everything-client speaks each one's lifecycle. */
const clientRevisions = [revision, "2025-11-25"];
const serverMain = join(root, "dist/examples/everything-server/main.js");
const clientMain = "dist/examples/everything-client/main.js";

function fail(message) {
  console.error(`\n✗ conformance: ${message}`);
  process.exit(1);
}

if (!existsSync(cli) || !existsSync(node22)) {
  rmSync(join(tools, "node_modules"), { recursive: true, force: true });
  ensureTools("conformance", "node_modules/node/bin/node");
}
if (!existsSync(serverMain)) fail("dist/examples is missing: run `node scripts/build.mjs` first");

const version = spawnSync(node22, ["--version"], { encoding: "utf8" }).stdout.trim();
console.error(`conformance: CLI under Node ${version}, examples under Node ${process.version}`);

/** Scenario names a requirement set (by default the 2026-07-28 one) lists for one leg. */
function required(leg, set = revision) {
  const yaml = readFileSync(join(tools, `node_modules/@modelcontextprotocol/conformance/requirements/${set}.yaml`), "utf8");
  const names = [];
  let inLeg = false;
  for (const line of yaml.split("\n")) {
    if (/^\S/.test(line)) inLeg = line.startsWith(`${leg}:`);
    else if (inLeg) {
      const match = /^ {2}- ([^\s#]+)/.exec(line);
      if (match) names.push(match[1]);
    }
  }
  return names;
}

/** Per-scenario check counts from the CLI's summary lines (`✓ name: 3 passed, 0 failed`); `label` names the leg in what it prints. */
function summarize(output, leg, set = revision, label = leg) {
  const scores = new Map();
  for (const match of output.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?/gm)) {
    scores.set(match[2], { ok: match[1] === "✓", passed: Number(match[3]), failed: Number(match[4]), warnings: Number(match[5] ?? 0) });
  }
  const scored = required(leg, set);
  const missing = scored.filter((name) => !scores.has(name));
  const passing = scored.filter((name) => scores.get(name)?.ok);
  const checks = scored.reduce((sum, name) => sum + (scores.get(name)?.passed ?? 0), 0);
  const failedChecks = scored.reduce((sum, name) => sum + (scores.get(name)?.failed ?? 0), 0);
  console.error(`conformance ${label}: ${passing.length}/${scored.length} required scenarios pass (${checks} checks passed, ${failedChecks} failed)`);
  for (const name of scored.filter((n) => !scores.get(n)?.ok)) console.error(`  ✗ ${name}${missing.includes(name) ? " (did not run)" : ""}`);
  // The set's not_scored scenarios (extensions, pending, added after the release) never count toward
  // conformance, but every one passes today, so each is held to that: one that fails is a regression.
  const extra = unscored(leg, set);
  const extraPassing = extra.filter((name) => scores.get(name)?.ok);
  const extraChecks = extra.reduce((sum, name) => sum + (scores.get(name)?.passed ?? 0), 0);
  const skipped = extra.filter((name) => scores.get(name)?.ok && scores.get(name)?.passed === 0);
  console.error(
    `conformance ${label}: unscored ${extraPassing.length}/${extra.length} pass (${extraChecks} checks passed` +
      `${skipped.length > 0 ? `; ${skipped.join(", ")} skipped by the CLI itself` : ""})`,
  );
  for (const name of extra.filter((n) => !scores.get(n)?.ok)) console.error(`  ✗ ${name} (unscored; regressed)${scores.has(name) ? "" : " (did not run)"}`);
  return passing.length === scored.length && extraPassing.length === extra.length;
}

/** Scenarios a requirement set runs for one leg but never scores (`not_scored`: extensions, added after the anchor). */
function unscored(leg, rev) {
  const yaml = readFileSync(join(tools, `node_modules/@modelcontextprotocol/conformance/requirements/${rev}.yaml`), "utf8");
  const section = yaml.split(/^not_scored:\n/m)[1] ?? "";
  return [...section.matchAll(/- scenario: (\S+)\n\s+leg: (\S+)/g)].filter((match) => match[2] === leg).map((match) => match[1]);
}

/**
 * The client leg at one revision, one scenario at a time. Run as one suite,
 * the CLI starts every scenario's server and client at once (over thirty
 * Node processes); on a loaded two-core machine that alone resets
 * connections, so the required scenarios run in turn, the auth/* ones (the
 * OAuth client, mcp-roundtrip/ext/oauth) among them. Every required scenario
 * must pass. The revision's unscored client scenarios (of the auth/*
 * extensions, client credentials only) run too, and are reported without
 * counting.
 */
async function clientLeg(command, rev) {
  const scored = required("client", rev);
  // Of the auth/* extensions, client credentials (machine clients, secret or private_key_jwt) is one this SDK implements: shown, never counted.
  const extensions = rev === revision ? ["auth/client-credentials-basic", "auth/client-credentials-jwt"] : [];
  const extra = [
    ...unscored("client", rev).filter((name) => !name.startsWith("auth/") && !scored.includes(name)),
    ...extensions.filter((name) => unscored("client", rev).includes(name)),
  ];
  let passed = 0;
  let failed = 0;
  const failing = [];
  const extraLines = [];
  for (const name of [...scored, ...extra]) {
    const args = ["client", "--scenario", name, "--spec-version", rev, "--command", command, "-o", join(results, `client-${rev}`)];
    if (extensions.includes(name)) args.push("--force"); // extensions are off the spec timeline
    const run = await runCli(args, `client ${rev} ${name}`, { quiet: true, tolerated: extra.includes(name) });
    const score = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(run.output);
    const ok = run.code === 0 && score !== null && score[3] === "0";
    if (extra.includes(name)) {
      extraLines.push(`  ${ok ? "✓" : "✗"} ${name}: ${score ? `${score[1]}/${score[2]} checks` : "no score"}`);
      continue;
    }
    passed += Number(score?.[1] ?? 0);
    failed += Number(score?.[3] ?? 0);
    if (!ok) failing.push(name);
  }
  const auth = scored.filter((name) => name.startsWith("auth/"));
  const authFailing = failing.filter((name) => name.startsWith("auth/"));
  console.error(
    `conformance client ${rev}: ${scored.length - failing.length}/${scored.length} required scenarios pass (${passed} checks passed, ${failed} failed); ` +
      `auth/*: ${auth.length - authFailing.length}/${auth.length}`,
  );
  for (const name of failing) console.error(`  ✗ ${name}`);
  if (extraLines.length > 0) console.error(`conformance client ${rev}, not scored:\n${extraLines.join("\n")}`);
  return failing.length === 0;
}

function runCli(args, label, { quiet = false, tolerated = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(node22, [cli, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15 * 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (process.env.CONFORMANCE_VERBOSE) console.error(output);
      if (!quiet || (code !== 0 && !tolerated)) console.error(`conformance ${label}: CLI exit ${code}`);
      resolve({ code, output });
    });
  });
}

function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverMain, "--port", "0"], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`everything-server did not start within 20 s:\n${err}`));
    }, 20_000);
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const match = /MCP endpoint: (\S+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`everything-server exited (code ${code}) before listening:\n${err}`));
    });
  });
}

const results = mkdtempSync(join(tmpdir(), "mcp-roundtrip-conformance-"));
let ok = true;
try {
  const server = await startServer();
  try {
    for (const set of serverRevisions) {
      const label = `server ${set}`;
      const run = await runCli(["server", "--url", server.url, "--requirements", set, "-o", join(results, "server", set)], label);
      ok = summarize(run.output, "server", set, label) && run.code === 0 && ok;
    }
  } finally {
    server.child.kill();
  }
  // The runner splits --command on spaces and appends the server URL.
  const command = `${process.execPath} ${clientMain}`;
  if (command.split(" ").length !== 2) fail(`the Node path contains a space, which the conformance runner cannot pass: ${process.execPath}`);
  for (const set of clientRevisions) ok = (await clientLeg(command, set)) && ok;
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  if (ok) rmSync(results, { recursive: true, force: true });
  else console.error(`conformance: results kept in ${results}`);
}
if (!ok) fail(`a required scenario, or an unscored server scenario that passed before, failed (rerun with CONFORMANCE_VERBOSE=1 for the CLI's output)`);
