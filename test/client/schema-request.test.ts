// client.request for a method the protocol schema defines: typed by the revision the client speaks
// (test/types/client-revision.test.ts), and at run time the same loop as callTool, with the caller's own
// params._meta sent as extra _meta keys under the client's envelope.
import { describe, expect, it } from "vitest";
import { Client } from "mcp-roundtrip/client";
import { McpServer, elicit } from "mcp-roundtrip/server";
import { serveHttp } from "mcp-roundtrip/node";
import { tap } from "./tap.js";

const nameForm = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

function greeter() {
  const server = new McpServer({ name: "greeter", version: "1.0.0" });
  server.tool(
    "greet",
    { inputSchema: { type: "object" }, needs: (need) => need.add("confirm", () => elicit({ message: "Your name?", schema: nameForm })) },
    (_args, { confirm }) => ({ content: [{ type: "text", text: confirm.action === "accept" ? `Hello, ${confirm.content.name}` : "no name" }] }),
  );
  return server;
}

const onElicit = async () => ({ action: "accept" as const, content: { name: "Ada" } });

describe("client.request for the schema's methods", () => {
  it("runs the rounds of tools/call like callTool and resolves with the complete result", async () => {
    const wire = tap(greeter());
    const client = await Client.connect(wire, { onElicit });
    const result = await client.request("tools/call", { name: "greet", arguments: {} });
    expect(result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Hello, Ada" }] });
    const calls = wire.requests.filter((request) => request.method === "tools/call");
    expect(calls).toHaveLength(2);
    expect(calls[1]!.params).toMatchObject({ name: "greet", inputResponses: { confirm: { action: "accept" } } });
  });

  it("sends params._meta as extra _meta keys, under the client's own envelope", async () => {
    const wire = tap(greeter());
    const client = await Client.connect(wire);
    const { tools } = await client.request("tools/list", { _meta: { progressToken: 7, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } });
    expect(tools.map((tool) => tool.name)).toEqual(["greet"]);
    const sent = wire.requests.at(-1)!;
    expect(sent.params!._meta).toMatchObject({ progressToken: 7, "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
  });

  it("refuses a params._meta that is not an object, saying what it must be", async () => {
    const client = await Client.connect(greeter());
    await expect(client.request("tools/list", { _meta: "x" as never })).rejects.toThrow(
      'client.request("tools/list"): params._meta must be an object of extra _meta keys, got string.',
    );
  });

  it("works on a 2025-11-25 session over HTTP, with that revision's methods", async () => {
    const http = await serveHttp(greeter());
    try {
      const client = await Client.connect(http.url, { mode: "2025-11-25", onElicit });
      try {
        expect((await client.request("tools/list")).tools.map((tool) => tool.name)).toEqual(["greet"]);
        expect((await client.request("tools/call", { name: "greet" })).content).toEqual([{ type: "text", text: "Hello, Ada" }]);
      } finally {
        await client.close();
      }
    } finally {
      await http.close();
    }
  });
});
