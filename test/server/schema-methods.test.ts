// Routes served by revision: a method is answered only for a peer whose revision's schema defines it (built-in and
// schema routes) or that the custom method's `revisions` name; a schema method registered with setRequestHandler is
// checked by the generated validators of the request's revision, with no schemas given.
import { describe, expect, it } from "vitest";
import { McpServer } from "mcp-roundtrip/server";
import { pair, recordingLogger } from "./helpers.js";
import { rawSession } from "./raw-legacy-session.js";

const server = (legacy?: "reject") => new McpServer({ name: "routes", version: "1.0.0" }, { logger: recordingLogger(), ...(legacy ? { legacy } : {}) });

describe("setRequestHandler and the revisions a route is served to", () => {
  it("a custom method naming its revisions is -32601 for a peer speaking another", async () => {
    const mcp = server().setRequestHandler("widgets/count", { revisions: ["2026-07-28"] }, () => ({ count: 3 }));
    expect(await pair(mcp).result("widgets/count")).toMatchObject({ count: 3, resultType: "complete" });
    const raw = rawSession(mcp);
    await raw.initialize();
    expect(await raw.request("widgets/count", {})).toMatchObject({ error: { code: -32601, message: expect.stringContaining("not part of protocol 2025-11-25") } });
  });

  it("a custom method without revisions is served to both generations", async () => {
    const mcp = server().setRequestHandler("widgets/count", {}, () => ({ count: 3 }));
    const raw = rawSession(mcp);
    await raw.initialize();
    expect(await raw.request("widgets/count", {})).toMatchObject({ result: { count: 3 } });
  });

  it("revisions naming a version the server does not serve is a TypeError naming what it serves", () => {
    expect(() => server().setRequestHandler("widgets/count", { revisions: ["2099-01-01"] }, () => ({}))).toThrow(
      /does not serve "2099-01-01"; it serves 2026-07-28/,
    );
    expect(() => server("reject").setRequestHandler("widgets/count", { revisions: ["2025-11-25"] }, () => ({}))).toThrow(/does not serve "2025-11-25"/);
    expect(() => server().setRequestHandler("widgets/count", { revisions: [] }, () => ({}))).toThrow(/non-empty list/);
    expect(() => server().setRequestHandler("tools/list", { override: true, revisions: ["2026-07-28"] } as never, () => ({ tools: [] }))).toThrow(
      /revisions is for methods outside the schema/,
    );
  });

  it("an input-request kind is not a method a client sends: registering one needs override", () => {
    expect(() => server().setRequestHandler("elicitation/create" as string, {}, () => ({}))).toThrow(/defined by the protocol/);
  });

  it("a schema method overridden without schemas is checked by the generated validators: params -32602, result -32603", async () => {
    const mcp = server().setRequestHandler("tools/list", { override: true }, ({ cursor }) => ({ tools: cursor === "bad" ? ("nope" as never) : [] }));
    const client = pair(mcp);
    expect(await client.result("tools/list")).toMatchObject({ tools: [], resultType: "complete", cacheScope: "public", ttlMs: 0 });
    expect(await client.error("tools/list", { cursor: 5 })).toMatchObject({ code: -32602, message: expect.stringContaining("/params/cursor") });
    expect(await client.error("tools/list", { cursor: "bad" })).toMatchObject({ code: -32603 });
  });

  it("an overridden schema method is served to a 2025 session too, since the 2025 schema defines it", async () => {
    const raw = rawSession(server().setRequestHandler("tools/list", { override: true }, () => ({ tools: [{ name: "virtual", inputSchema: { type: "object" } }] })));
    await raw.initialize();
    expect(await raw.request("tools/list", {})).toMatchObject({ result: { tools: [{ name: "virtual" }] } });
  });
});
