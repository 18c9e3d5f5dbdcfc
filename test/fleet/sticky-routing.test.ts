// The nginx routing docs/both-generations.md recommends for a fleet that
// serves both generations, run as written: its ```nginx block, with the
// `server` lines pointed at three local instances and `listen` at a local
// port. 2025 clients (a session each, three-round calls whose questions come
// over the session) must complete every call, never meeting a 404 for their
// session; 2026-07-28 calls must spread over the instances. (The block
// hashed on Mcp-Session-Id before the drill found that the instance
// answering `initialize` is picked before the id exists.)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "mcp-roundtrip/client";
import { answerTo, expectedMrtrText } from "../../drill/answers.js";
import { Fleet, freePort } from "../../examples/fleet/fleet.js";
import { extractSnippets } from "../docs/doc-snippets.js";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { systemPrograms } from "../support/system.js";

const programs = systemPrograms("the sticky-routing test (test/fleet)", [{ program: "nginx", aptPackage: "nginx" }]);
const KEY = "base64url:c3RpY2t5LWtleS1zdGlja3kta2V5LXN0aWNreS1rZXktc3Q";

/** The documented block, made runnable: local instances, a local port, the directives a whole nginx.conf needs. */
function documentedConfig(dir: string, listen: number, ports: number[]): string {
  const doc = readFileSync(join(root, "docs/both-generations.md"), "utf8");
  const block = extractSnippets(doc, "docs/both-generations.md").find((snippet) => snippet.lang === "nginx" && snippet.code.includes("$mcp_route"));
  if (block === undefined) throw new Error("docs/both-generations.md has no nginx block routing on $mcp_route");
  let servers = 0;
  const http = block.code
    .replace(/server 10\.0\.0\.\d+:3000;/g, () => `server 127.0.0.1:${ports[servers++]};`)
    .replace("listen 443 ssl;", `listen 127.0.0.1:${listen};`);
  expect(servers).toBe(3);
  return `${process.getuid?.() === 0 ? "user root;\n" : ""}daemon off;
worker_processes 1;
pid ${dir}/sticky.pid;
error_log ${dir}/sticky-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/sticky-body;
  proxy_temp_path ${dir}/sticky-proxy;
  fastcgi_temp_path ${dir}/sticky-fastcgi;
  uwsgi_temp_path ${dir}/sticky-uwsgi;
  scgi_temp_path ${dir}/sticky-scgi;
${http}
}
`;
}

const onElicit = (params: { message: string }) => ({ action: "accept" as const, content: { value: answerTo(params.message) ?? "?" } });
const textOf = (result: { content: { type: string; text?: string }[] }) => (result.content[0]?.type === "text" ? (result.content[0].text ?? "") : "");
/** The instance that answered (the drill instance's `drill_stats` names it). */
const instanceOf = async (client: Client<"2025-11-25"> | Client<"2026-07-28">) =>
  (JSON.parse(textOf(await client.callTool("drill_stats", {}))) as { name: string }).name;

describe.skipIf(programs === undefined)("the nginx routing of docs/both-generations.md", () => {
  let fleet: Fleet;
  let keys = "";
  let url = "";
  let stopNginx = async () => {};
  beforeAll(async () => {
    ensureBuilt("drill/instance.js");
    keys = mkdtempSync(join(tmpdir(), "mcp-sticky-"));
    writeFileSync(join(keys, "keys"), KEY);
    fleet = await Fleet.start(
      { nginx: programs!.nginx!, instanceScript: join(root, "dist/drill/instance.js") },
      { keys: KEY, env: { DRILL_KEYS_FILE: join(keys, "keys") } },
    );
    const port = await freePort();
    const config = join(fleet.dir, "sticky.conf");
    writeFileSync(
      config,
      documentedConfig(
        fleet.dir,
        port,
        fleet.instances.map((instance) => instance.port),
      ),
    );
    const nginx = spawn(programs!.nginx!, ["-p", fleet.dir, "-c", config, "-e", join(fleet.dir, "sticky-error.log")], { stdio: "ignore" });
    stopNginx = () => new Promise((resolve) => (nginx.exitCode !== null ? resolve() : (nginx.once("exit", () => resolve()), nginx.kill("SIGTERM"))));
    url = `http://127.0.0.1:${port}/mcp`;
    for (let tries = 0; tries < 200; tries++) {
      if (
        await fetch(url, { method: "GET" }).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }, 120_000);
  afterAll(async () => {
    await stopNginx();
    await fleet?.stop();
    rmSync(keys, { recursive: true, force: true });
  });

  it("keeps every 2025 session on its instance and spreads 2026-07-28 calls", async () => {
    for (let c = 0; c < 4; c++) {
      const client = await Client.connect(url, { mode: "2025-11-25", onElicit });
      const home = await instanceOf(client);
      for (let i = 0; i < 3; i++) {
        // Two questions over the session's stream, each answer posted back to the instance that asked.
        expect(textOf(await client.callTool("mrtr", { id: `old-${c}-${i}`, plan: "ee" }))).toBe(expectedMrtrText(`old-${c}-${i}`, "ee"));
        expect(await instanceOf(client)).toBe(home);
      }
      await client.close();
    }
    const modern = await Client.connect(url, { mode: "2026-07-28", onElicit });
    const answeredBy = new Set<string>();
    for (let i = 0; i < 12; i++) {
      expect(textOf(await modern.callTool("mrtr", { id: `new-${i}`, plan: "ee" }))).toBe(expectedMrtrText(`new-${i}`, "ee"));
      answeredBy.add(await instanceOf(modern));
    }
    await modern.close();
    expect(answeredBy.size).toBeGreaterThan(1);
  }, 60_000);
});
