// The client introduces itself as this package at the version npm installs:
// the default clientInfo a server logs and may branch on must not lag a release.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Client, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { McpServer } from "mcp-roundtrip/server";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

describe("the client's default clientInfo", () => {
  it.each([MODERN_PROTOCOL_VERSION, "2025-11-25"] as const)("names mcp-roundtrip at package.json's version (%s)", async (mode) => {
    const seen: unknown[] = [];
    const server = new McpServer({ name: "version-check", version: "1.0.0" });
    server.tool("who", {}, (_args, ctx) => {
      seen.push(ctx.clientInfo);
      return { content: [{ type: "text", text: "ok" }] };
    });
    const client = await Client.connect(server, { mode });
    await client.callTool("who", {});
    await client.close();
    expect(seen, "runtime/client/meta.ts DEFAULT_CLIENT_INFO must carry package.json's version: npm run version-packages sets both").toEqual([
      { name: "mcp-roundtrip", version },
    ]);
  });

  it("is what a 2025 initialize sends when the caller asked for no clientInfo (initialize requires one)", async () => {
    const seen: unknown[] = [];
    const server = new McpServer({ name: "version-check", version: "1.0.0" });
    server.tool("who", {}, (_args, ctx) => {
      seen.push(ctx.clientInfo);
      return { content: [{ type: "text", text: "ok" }] };
    });
    const client = await Client.connect(server, { mode: "2025-11-25", clientInfo: false });
    await client.callTool("who", {});
    await client.close();
    expect(seen, "runtime/client/handshake.ts's copy of the client's identity must carry package.json's version").toEqual([{ name: "mcp-roundtrip", version }]);
  });
});
