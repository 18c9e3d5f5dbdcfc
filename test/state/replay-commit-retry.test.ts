// A result went out but its token could not be committed at once (the
// replay store unreachable for a moment: Redis restarting, a Cluster
// failing over). Found by the fleet drill on a Redis Cluster, where a
// chaos client's replay of such a token was accepted once its lease had
// lapsed. The commit is now tried again until the store answers, so the
// token ends up spent while its lease still holds it.
import { describe, expect, it } from "vitest";
import { Client, type ElicitResult } from "mcp-roundtrip/client";
import { inputRequired, McpServer, type ReplayStore } from "mcp-roundtrip/server";
import { MemoryReplayStore, RequestStateSecurity } from "../../runtime/state/index.js";
import { recordingLogger, SECRET } from "./helpers.js";

/** A memory store whose first `failures` commits fail, as a store that is briefly unreachable does. */
function flakyCommits(failures: number): ReplayStore & { commits: number } {
  const inner = new MemoryReplayStore({ rememberedSince: 0 });
  let left = failures;
  return {
    commits: 0,
    rememberedSince: () => inner.rememberedSince(),
    claim: (...args: Parameters<MemoryReplayStore["claim"]>) => inner.claim(...args),
    release: (id: string) => inner.release(id),
    async commit(id: string, expiresAt: number, now: number) {
      this.commits++;
      if (left-- > 0) throw new Error("replay store unreachable");
      inner.commit(id, expiresAt, now);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const accept = (): ElicitResult => ({ action: "accept", content: {} });

describe("a commit that fails after the result went out", () => {
  it("is tried again, so the token is refused after its lease lapsed", async () => {
    let clock = 1_000;
    const store = flakyCommits(2);
    const security = new RequestStateSecurity(
      { keys: [SECRET] },
      { replay: store, replayLeaseSeconds: 1, audience: "pay", now: () => clock, logger: recordingLogger() },
    );
    const mcp = new McpServer({ name: "pay", version: "1.0.0" }, { requestStateSecurity: security, logger: { warn() {}, error() {} } });
    mcp.tool("pay", {}, (_args, ctx) =>
      ctx.requestState === undefined
        ? inputRequired({
            inputRequests: { ok: { method: "elicitation/create", params: { message: "Pay?", requestedSchema: { type: "object", properties: {} } } } },
            requestState: "quote",
          })
        : { content: [{ type: "text", text: "paid" }] },
    );
    const client = await Client.connect(mcp, { onElicit: accept });
    const first = (await client.session.callTool("pay", {}, { allowInputRequired: true })) as { requestState: string };
    const again = () => client.session.callTool("pay", {}, { allowInputRequired: true, inputResponses: { ok: accept() }, requestState: first.requestState });
    await expect(again()).resolves.toMatchObject({ content: [{ type: "text", text: "paid" }] });
    // The store fails twice; the next tries (after 100 ms, then 250 ms) land.
    for (let waited = 0; store.commits < 3 && waited < 3_000; waited += 50) await sleep(50);
    expect(store.commits).toBe(3);
    clock += 5; // the lease has lapsed: only the commit keeps the token spent
    await expect(again()).rejects.toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    await client.close();
  });
});
