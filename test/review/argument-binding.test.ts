// Adversarial review: a handler that fills in its own defaults must not break the next round over the wire.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Client } from "mcp-roundtrip/client";
import { inputRequired, McpServer } from "mcp-roundtrip/server";
import { snapshotJson } from "../../runtime/server/state-boundary.js";
import { pair } from "../server/helpers.js";

/** Whether `copy` holds, at the same place, an object or array that is also in `original`. */
function sharesAContainer(copy: unknown, original: unknown): boolean {
  if (typeof copy !== "object" || copy === null || typeof original !== "object" || original === null) return false;
  if (copy === original) return true;
  const originals = original as Record<string, unknown>;
  return Object.keys(copy).some((key) => sharesAContainer((copy as Record<string, unknown>)[key], originals[key]));
}

describe("review: sealed state is bound to the arguments the client sent", () => {
  it("accepts the retry when the handler changed its arguments object in place", async () => {
    const mcp = new McpServer({ name: "search-service", version: "1" }, { logger: { warn() {}, error() {} } });
    mcp.tool("search", { inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "number" } } } }, (args, ctx) => {
      args.limit ??= 10; // a common way to apply a default
      if (ctx.requestState === undefined) return inputRequired({ requestState: "asked" });
      return { content: [{ type: "text", text: `${String(args.q)} ${String(args.limit)}` }] };
    });
    const client = pair(mcp); // JSON on the wire, as over HTTP or stdio: the client re-sends what it sent first
    const first = await client.result("tools/call", { name: "search", arguments: { q: "x" } });
    const second = await client.send("tools/call", { name: "search", arguments: { q: "x" }, requestState: first.requestState });
    expect(second).toMatchObject({ result: { resultType: "complete", content: [{ text: "x 10" }] } });
  });

  it("still rejects the state against other arguments", async () => {
    const mcp = new McpServer({ name: "search-service", version: "1" }, { logger: { warn() {}, error() {} } });
    mcp.tool("search", {}, (_args, ctx) => (ctx.requestState === undefined ? inputRequired({ requestState: "asked" }) : { content: [] }));
    const client = pair(mcp);
    const first = await client.result("tools/call", { name: "search", arguments: { q: "x" } });
    const error = await client.error("tools/call", { name: "search", arguments: { q: "y" }, requestState: first.requestState });
    expect(error.message).toBe("Invalid or expired requestState");
  });
});

describe("review: the handler's arguments are its own copy", () => {
  it("leaves an in-memory client's arguments object untouched across rounds", async () => {
    const mcp = new McpServer({ name: "search-service", version: "1" }, { logger: { warn() {}, error() {} } });
    mcp.tool("search", {}, (args, ctx) => {
      args.limit ??= 10;
      ((args.filter as { seen?: boolean } | undefined) ?? {}).seen = true;
      if (ctx.requestState === undefined) return inputRequired({ requestState: "asked" });
      return { content: [{ type: "text", text: String(args.limit) }] };
    });
    const client = await Client.connect(mcp);
    const args = { q: "x", filter: { kind: "doc" } };
    const result = await client.callTool("search", args);
    expect(result.content).toEqual([{ type: "text", text: "10" }]);
    expect(args).toEqual({ q: "x", filter: { kind: "doc" } });
  });

  it("snapshotJson copies any JSON value exactly, own __proto__ keys included", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        const copy = snapshotJson(parsed);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
        // A deep copy: no object or array of the original is reachable from it, so changing the copy changes nothing there.
        expect(sharesAContainer(copy, parsed)).toBe(false);
      }),
    );
    const tricky = JSON.parse('{"__proto__":{"x":1},"a":[{"__proto__":2}]}') as unknown;
    expect(JSON.stringify(snapshotJson(tricky))).toBe(JSON.stringify(tricky));
  });
});
