// Adversarial review: inputs that crashed or were silently misread.
import { describe, expect, it } from "vitest";
import { inputRequired, McpServer, RequestStateSecurity, Server } from "mcp-roundtrip/server";
import { validate, validateRequest } from "mcp-roundtrip/validate";
import { meta, pair, recordingLogger } from "../server/helpers.js";

describe("review: Server.handle never rejects", () => {
  it("ignores notifications/cancelled from a caller whose authInfo has no clientId, and leaves the request running", async () => {
    let release!: () => void;
    const logger = recordingLogger();
    const server = new Server(
      { name: "s", version: "1" },
      { onCallTool: () => new Promise((resolve) => (release = () => resolve({ content: [{ type: "text", text: "done" }] }))) },
      { logger },
    );
    const context = { authInfo: { scopes: [] } as never };
    const pending = server.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta(), name: "t" } }, context);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, context)).resolves.toBeUndefined();
    release();
    expect(await pending).toMatchObject({ id: 1, result: { resultType: "complete" } });
  });
});

describe("review: validate names an unknown revision instead of crashing", () => {
  for (const revision of ["toString", "__proto__", "constructor"]) {
    it(`throws RangeError for revision ${JSON.stringify(revision)}`, () => {
      expect(() => validate("Tool", {}, { revision: revision as never })).toThrow(RangeError);
      expect(() => validateRequest("tools/list", {}, { revision: revision as never })).toThrow(/revision must be one of/);
    });
  }
});

describe("review: McpServer refuses two different audiences", () => {
  it("throws at construction when the audience option contradicts the security's own audience", () => {
    const security = new RequestStateSecurity({ keys: ["k".repeat(32)] }, { audience: "billing-a", logger: { warn() {} } });
    expect(() => new McpServer({ name: "billing", version: "1" }, { requestStateSecurity: security, audience: "billing-b" })).toThrow(/audience/);
  });

  it("accepts the same audience given twice", async () => {
    const security = new RequestStateSecurity({ keys: ["k".repeat(32)] }, { audience: "billing", logger: { warn() {} } });
    const mcp = new McpServer({ name: "billing", version: "1" }, { requestStateSecurity: security, audience: "billing" });
    mcp.tool("t", {}, (_args, ctx) => (ctx.requestState === "x" ? { content: [] } : inputRequired({ requestState: "x" })));
    const client = pair(mcp);
    const first = await client.result("tools/call", { name: "t" });
    expect((await client.result("tools/call", { name: "t", requestState: first.requestState })).resultType).toBe("complete");
  });
});

describe("review: notifications/cancelled over HTTP", () => {
  it("does not let one HTTP caller cancel another caller's request that happens to share its id", async () => {
    let release!: () => void;
    let aborted = false;
    const server = new Server(
      { name: "s", version: "1" },
      {
        onCallTool: (_params, ctx) =>
          new Promise((resolve) => {
            ctx.signal.addEventListener("abort", () => (aborted = true));
            release = () => resolve({ content: [{ type: "text", text: "done" }] });
          }),
      },
      { logger: recordingLogger() },
    );
    // Over Streamable HTTP each message is its own request: closing the stream is the cancellation signal (spec, cancellation).
    const alice = { headers: new Headers({ "content-type": "application/json" }) };
    const mallory = { headers: new Headers({ "content-type": "application/json" }) };
    const pending = server.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta(), name: "t" } }, alice);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, mallory);
    release();
    expect(aborted).toBe(false);
    expect(await pending).toMatchObject({ id: 1, result: { resultType: "complete" } });
  });
});

describe("review: McpServer names a malformed requestStateSecurity", () => {
  for (const [label, value] of [
    ["null", null],
    ["a string", "secret"],
    ["an object without mint/verify", { keys: ["k"] }],
  ] as const) {
    it(`throws a TypeError that says what to pass for ${label}`, () => {
      expect(() => new McpServer({ name: "server", version: "1" }, { requestStateSecurity: value as never })).toThrow(
        /requestStateSecurity must be a RequestStateSecurity/,
      );
    });
  }
});
