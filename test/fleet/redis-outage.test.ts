// A Redis outage under load: three instances behind nginx, each with the
// Redis replay store and the Redis broadcaster set up as docs/operations.md
// shows, and redis-server SIGKILLed for a few seconds mid-load. Every
// instance must stay up (node-redis emits `error` on a lost socket; unheard,
// that event ends the process), report the outage on /healthz, log it once,
// and serve exchanges again once Redis is back, without a restart.
// Needs nginx and redis-server (skipped loudly without them; CI requires them).
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, type ElicitResult } from "mcp-roundtrip/client";
import { Fleet } from "../../examples/fleet/fleet.js";
import { startLoad } from "../../examples/fleet/load.js";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { systemPrograms } from "../support/system.js";

const programs = systemPrograms("the Redis outage test (test/fleet)", [
  { program: "nginx", aptPackage: "nginx" },
  { program: "redis-server", aptPackage: "redis-server" },
]);

const KEYS = "base64url:b3V0YWdlLWtleS1vdXRhZ2Uta2V5LW91dGFnZS1rZXktb3V0";
/**
 * How long Redis stays down: 10 s with an append-only file (an SDK client's call started in the outage must
 * ride all of it out and complete), 3 s without (the epoch rule is the point there). MCP_REDIS_OUTAGE_MS sets both.
 */
const outageMs = (persistence: "none" | "aof") => Number(process.env.MCP_REDIS_OUTAGE_MS ?? (persistence === "aof" ? 10_000 : 3_000));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "provision",
};

/** One provision round as raw JSON-RPC through nginx; the status and the parsed answer. */
async function provisionRound(
  url: string,
  extra: Record<string, unknown>,
): Promise<{ status: number; body: { result?: { requestState?: string; content?: { text: string }[] }; error?: { code: number; data?: { reason?: string } } } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "provision", arguments: { app: "replayed" }, ...extra, _meta: META } }),
  });
  return { status: response.status, body: await response.json() };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(25);
  }
  return Date.now() - started;
}

describe.skipIf(programs === undefined)("a Redis outage behind nginx", () => {
  beforeAll(() => ensureBuilt("examples/fleet/instance.js"), 180_000);

  for (const persistence of ["none", "aof"] as const) {
    it(`keeps every instance up through a SIGKILL of redis-server, accepts no replay, and serves again once it is back (persistence: ${persistence})`, async () => {
      const fleet = await Fleet.start(
        { nginx: programs!.nginx!, redisServer: programs!["redis-server"]!, instanceScript: join(root, "dist/examples/fleet/instance.js") },
        { keys: KEYS, redis: true, redisPersistence: persistence, env: { FLEET_REPLAY_LEASE_SECONDS: "1", FLEET_WORK_MS: "2" } },
      );
      try {
        const load = startLoad({ base: fleet.base, instances: 3, concurrency: 12, maxExchanges: 50_000, maxMs: 30_000 });
        await sleep(800);
        const before = load.figures.completed;
        expect(before, "exchanges completed before the outage").toBeGreaterThan(0);
        // A round whose token gets spent now, to present again later: during the outage and after Redis came back empty.
        const first = await provisionRound(fleet.url, {});
        const spentRound = { inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } }, requestState: first.body.result!.requestState! };
        const spent = await provisionRound(fleet.url, spentRound);
        expect(spent.body.result?.requestState, "the round was accepted once").toEqual(expect.any(String));
        expect((await provisionRound(fleet.url, spentRound)).body.error?.code, "and refused the second time").toBe(-32602);

        await fleet.killRedis();
        // An SDK client's call started during the outage: its rounds with state are answered "temporarily
        // unavailable" and sent again unchanged until Redis is back; the user is asked each question once.
        const asked: string[] = [];
        const client = await Client.connect(fleet.url, {
          onElicit: async (params): Promise<ElicitResult> => {
            asked.push(params.message);
            return params.message.startsWith("Region") ? { action: "accept", content: { region: "eu-west-1" } } : { action: "accept", content: { yes: true } };
          },
        });
        const during = client.callTool("provision", { app: "outage" }).then(
          (result) => result,
          (error: unknown) => error,
        );
        const degradedAfterMs = await until(async () => (await fleet.health()).every((status) => status === 503), 5_000);
        await sleep(outageMs(persistence));
        expect(fleet.exits(), "every instance still running during the outage").toEqual([null, null, null]);
        const replayDuring = await provisionRound(fleet.url, spentRound);
        expect(replayDuring.status, "a spent token during the outage: refused as retryable, not accepted").toBe(503);
        const duringOutage = load.figures;
        const failedDuring = duringOutage.failed;

        await fleet.reviveRedis();
        const completedAtReturn = load.figures.completed;
        const firstCompletedAfterMs = until(async () => load.figures.completed > completedAtReturn, 10_000);
        const recoveredAfterMs = await until(async () => (await fleet.health()).every((status) => status === 200), 10_000);
        // Without persistence Redis came back empty: it forgot the token was spent, and the epoch rule refuses it;
        // with an fsynced append-only file it remembers, and refuses it as replayed.
        const replayAfter = await provisionRound(fleet.url, spentRound);
        expect(replayAfter.body.error?.code, "a spent token after Redis came back is refused").toBe(-32602);
        const logs = fleet.instances.map((instance) => instance.log()).join("\n");
        if (persistence === "none") expect(logs).toContain("requestState rejected (replay_store_reset)");
        else expect(logs).not.toContain("replay_store_reset");
        const provisioned = await during;
        await client.close();
        if (persistence === "aof") {
          // The call's rounds were answered "temporarily unavailable" and sent again unchanged: each question asked once.
          expect(provisioned).toMatchObject({ content: [{ text: expect.stringMatching(/^provisioned outage in eu-west-1 by i[0-2]$/) }] });
          expect(asked).toEqual(["Region for outage?", "Provision outage in eu-west-1?"]);
        } else {
          // The trade-off docs/operations.md names: a round in flight across a restart that lost the data is refused
          // (its token was issued before the new epoch), so that no spent token can come back; it is asked again.
          expect(provisioned).toMatchObject({ code: -32602 });
          expect(asked).toEqual(["Region for outage?"]);
        }
        await sleep(1_000);
        const figures = await load.stop();

        // After Redis came back, a fresh load completes every exchange: the instances reconnected on their own.
        const after = startLoad({ base: fleet.base, instances: 3, concurrency: 6, maxExchanges: 60, maxMs: 10_000 });
        await until(async () => after.figures.exchanges >= 60 || after.figures.failed > 0, 15_000).catch(() => 0);
        const check = await after.stop();
        expect(check.failures.slice(0, 3)).toEqual([]);
        expect(check.completed).toBe(check.exchanges);

        expect(fleet.exits(), "every instance still running after the outage").toEqual([null, null, null]);
        // Rounds that needed Redis were refused meanwhile (fail closed), as retryable: 503 temporarily unavailable,
        // never -32602 (which would tell a client its live token is dead), never a crash or a 502.
        expect(failedDuring).toBeGreaterThan(0);
        const retryable = (failure: (typeof figures.failures)[number]) => failure.status === 503 && failure.code === -32603;
        // Without persistence, the rounds in flight when Redis came back empty are refused (-32602, the epoch rule):
        // at most one per exchange in flight, never more.
        const refusedAcrossRestart = figures.failures.filter((failure) => !retryable(failure));
        if (persistence === "aof") expect(refusedAcrossRestart).toEqual([]);
        else {
          expect(refusedAcrossRestart.filter((failure) => failure.code !== -32602)).toEqual([]);
          expect(refusedAcrossRestart.length).toBeLessThanOrEqual(12);
        }
        for (const instance of fleet.instances) {
          const log = instance.log();
          expect(log).not.toContain("Unhandled 'error' event");
          expect(log).toContain("Redis replay store: connection lost");
          expect(log).toContain("Redis replay store: connection back");
          // One line per loss, not one per reconnection attempt.
          expect(log.split("Redis replay store: connection lost").length - 1).toBe(1);
        }
        console.log(
          `redis outage figures (persistence ${persistence}): ${JSON.stringify({
            outageMs: outageMs(persistence),
            degradedAfterMs,
            recoveredAfterMs,
            firstCompletedAfterMs: await firstCompletedAfterMs,
            exchanges: figures.exchanges,
            completed: figures.completed,
            failedDuringOutage: failedDuring,
            failureCodes: Object.fromEntries(
              [...new Set(figures.failures.map((failure) => `${failure.status}/${failure.code ?? "-"}`))].map((code) => [
                code,
                figures.failures.filter((failure) => `${failure.status}/${failure.code ?? "-"}` === code).length,
              ]),
            ),
            afterCompleted: check.completed,
          })}`,
        );
      } finally {
        await fleet.stop();
      }
    }, 90_000);
  }
});
