// Adversarial review: behaviours found wrong when the merged SDK was read against the spec, DESIGN.md and the seed.
import { describe, expect, it } from "vitest";
import { Client, InvalidServerResult } from "mcp-roundtrip/client";
import { inputRequired, McpServer, RequestStateSecurity, requestStateBoundary, Server, type RequestStateSealer } from "mcp-roundtrip/server";
import { fakeServer } from "../client/fake-server.js";
import { pair, recordingLogger } from "../server/helpers.js";

const FIXED = { code: -32602, message: "Invalid or expired requestState", data: { reason: "invalid_request_state" } };

function guarded(sealer: RequestStateSealer) {
  const logger = recordingLogger();
  const seen: unknown[] = [];
  const server = new Server(
    { name: "guarded", version: "1" },
    {
      onCallTool: (_params, ctx) => {
        seen.push(ctx.requestState);
        return ctx.requestState === undefined ? inputRequired({ requestState: "plain" }) : { content: [] };
      },
    },
    { logger },
  );
  server.use(requestStateBoundary(sealer));
  return { client: pair(server), seen, logger };
}

describe("review: the request-state boundary fails closed on a sealer's odd answers", () => {
  for (const [label, value] of [
    ["undefined", undefined],
    ["null", null],
    ["a number", 7],
    ["an object", { s: "x" }],
  ] as const) {
    it(`rejects with the fixed error when verify resolves to ${label}, before the handler runs`, async () => {
      const { client, seen, logger } = guarded({ mint: () => "tok", verify: async () => value as unknown as string });
      expect(await client.error("tools/call", { name: "t", requestState: "tok" })).toEqual(FIXED);
      expect(seen).toEqual([]);
      expect(logger.warnings.join()).toContain("requestState rejected");
    });
  }

  it("answers -32603 instead of sending a non-string token when mint returns something else", async () => {
    const { client, logger } = guarded({ mint: async () => undefined as unknown as string, verify: () => "x" });
    const error = await client.error("tools/call", { name: "t" });
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("requestState");
    expect(logger.errors.length).toBeGreaterThan(0);
  });
});

describe("review: the client rejects an input_required it can neither answer nor echo", () => {
  it("treats an empty inputRequests map without requestState as invalid, at once", async () => {
    const server = fakeServer(() => ({ resultType: "input_required", inputRequests: {} }));
    const client = await Client.connect(server);
    await expect(client.callTool("t")).rejects.toBeInstanceOf(InvalidServerResult);
    expect(server.calls).toHaveLength(1);
  });
});

describe("review: RequestStateSecurity.verify rejects rather than throws on a broken clock", () => {
  it("turns a throwing now() into InvalidRequestState", async () => {
    const minting = new RequestStateSecurity({ keys: ["k".repeat(32)] }, { logger: { warn() {} } });
    const token = await minting.mint({ method: "tools/call", target: "t", state: "s" });
    let broken = false;
    const security = new RequestStateSecurity(
      { keys: ["k".repeat(32)] },
      {
        logger: { warn() {} },
        now: () => {
          if (broken) throw new Error("clock gone");
          return Date.now() / 1000;
        },
      },
    );
    broken = true;
    await expect(security.verify(token, { method: "tools/call", target: "t" })).rejects.toMatchObject({ name: "InvalidRequestState" });
  });
});

describe("review: McpServer default sealing", () => {
  it("verifies an echoed state for a tool that never mints, before it runs", async () => {
    let ran = 0;
    const mcp = new McpServer({ name: "probe-server", version: "1" }, { logger: { warn() {}, error() {} } });
    mcp.tool("plain", {}, () => (ran++, { content: [] }));
    const client = pair(mcp);
    expect(await client.error("tools/call", { name: "plain", requestState: "v1.forged" })).toEqual(FIXED);
    expect(ran).toBe(0);
    expect((await client.result("tools/call", { name: "plain", requestState: null })).resultType).toBe("complete");
  });
});
