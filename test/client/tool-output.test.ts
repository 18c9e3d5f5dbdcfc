// callTool checks structuredContent against the tool's outputSchema, read from
// the tools/list the client saw (every page, listed once per client until the
// server says its tools changed), and throws ToolOutputInvalid on a misfit.
import { describe, expect, it } from "vitest";
import { Client, ToolOutputInvalid } from "mcp-roundtrip/client";
import { Server } from "mcp-roundtrip/server";

const weatherTool = {
  name: "weather",
  inputSchema: { type: "object" as const },
  outputSchema: {
    type: "object" as const,
    properties: { temperature: { type: "number" }, conditions: { type: "string" } },
    required: ["temperature", "conditions"],
  },
};
const echoTool = { name: "echo", inputSchema: { type: "object" as const } };

/**
 * Our low-level server (it does not check what its handlers return): `weather`
 * answers what `output` says, `echo` has no outputSchema; tools/list comes in
 * two pages, and every request for a page is counted.
 */
function weatherServer(output: () => Record<string, unknown>) {
  const listed: (string | undefined)[] = [];
  const server = new Server(
    { name: "weather-server", version: "1.0.0" },
    {
      onListTools: (params) => {
        listed.push(params.cursor);
        return params.cursor === undefined ? { tools: [echoTool], nextCursor: "page-2" } : { tools: [weatherTool] };
      },
      onCallTool: (params) =>
        (params.name === "weather" ? { content: [{ type: "text", text: "weather" }], ...output() } : { content: [{ type: "text", text: "echo" }] }) as never,
    },
  );
  return { server, listed };
}

describe("callTool checks structuredContent against the tool's outputSchema", () => {
  it("throws ToolOutputInvalid naming the tool and each misfit as a JSON Pointer when a tool's output lies", async () => {
    const { server } = weatherServer(() => ({ structuredContent: { temperature: "warm" } }));
    const client = await Client.connect(server);
    const error = (await client.callTool("weather", {}).catch((caught: unknown) => caught)) as ToolOutputInvalid;
    expect(error).toBeInstanceOf(ToolOutputInvalid);
    expect(error.name).toBe("ToolOutputInvalid");
    expect(error.tool).toBe("weather");
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(["/conditions", "/temperature"]);
    expect(error.issues.find((issue) => issue.path === "/conditions")?.message).toBe("is required");
    expect(error.message).toMatch(/^Tool "weather" returned structuredContent that does not fit its outputSchema: .*\/temperature.*checkOutput: false/);
    expect(error.result.structuredContent).toEqual({ temperature: "warm" });
  });

  it("throws when a tool with an outputSchema returns no structuredContent, once the client has the list (it lists for structuredContent only)", async () => {
    let output: Record<string, unknown> = {};
    const { server, listed } = weatherServer(() => output);
    const client = await Client.connect(server);
    expect((await client.callTool("weather", {})).structuredContent).toBeUndefined();
    expect(listed).toEqual([]);
    output = { structuredContent: { temperature: 1, conditions: "fog" } };
    await client.callTool("weather", {});
    expect(listed).toEqual([undefined, "page-2"]);
    output = {};
    await expect(client.callTool("weather", {})).rejects.toMatchObject({
      name: "ToolOutputInvalid",
      issues: [{ path: "", message: expect.stringMatching(/is missing/) }],
    });
  });

  it("returns a result that fits; does not check isError results, tools without an outputSchema, or calls that opt out", async () => {
    let output: Record<string, unknown> = { structuredContent: { temperature: 21.5, conditions: "sunny" } };
    const { server } = weatherServer(() => output);
    const client = await Client.connect(server);
    expect((await client.callTool("weather", {})).structuredContent).toEqual({ temperature: 21.5, conditions: "sunny" });
    expect((await client.callTool("echo", {})).content).toEqual([{ type: "text", text: "echo" }]);
    output = { isError: true, structuredContent: { reason: "no such city" } };
    expect((await client.callTool("weather", {})).isError).toBe(true);
    output = { structuredContent: { temperature: "warm" } };
    expect((await client.callTool("weather", {}, { checkOutput: false })).structuredContent).toEqual({ temperature: "warm" });
  });

  it("is off for a client connected with checkToolOutputs: false (and never lists the tools), on again for one call", async () => {
    const { server, listed } = weatherServer(() => ({ structuredContent: { temperature: "warm" } }));
    const client = await Client.connect(server, { checkToolOutputs: false });
    expect((await client.callTool("weather", {})).structuredContent).toEqual({ temperature: "warm" });
    expect(listed).toEqual([]);
    await expect(client.callTool("weather", {}, { checkOutput: true })).rejects.toBeInstanceOf(ToolOutputInvalid);
  });

  it("lists every page once per client, when it first needs a schema, and again after notifications/tools/list_changed", async () => {
    const { server, listed } = weatherServer(() => ({ structuredContent: { temperature: 3, conditions: "snow" } }));
    const client = await Client.connect(server);
    const subscription = client.subscribe({ toolsListChanged: true });
    await subscription.acknowledged;
    expect(listed).toEqual([]);
    await Promise.all([client.callTool("weather", {}), client.callTool("echo", {})]);
    await client.callTool("weather", {});
    expect(listed).toEqual([undefined, "page-2"]);
    const other = await Client.connect(server);
    await other.callTool("weather", {});
    expect(listed).toEqual([undefined, "page-2", undefined, "page-2"]);
    server.sendListChanged("tools");
    const iterator = subscription[Symbol.asyncIterator]();
    await iterator.next(); // acknowledged
    expect((await iterator.next()).value).toEqual({ type: "toolsListChanged" });
    await client.callTool("weather", {});
    expect(listed).toEqual([undefined, "page-2", undefined, "page-2", undefined, "page-2"]);
    await subscription.close();
  });
});
