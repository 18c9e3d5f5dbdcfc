// The framework examples (Express 5 and Fastify 5 through toNodeHandler, Hono 4
// through the web handler), each a real server on 127.0.0.1 serving the
// everything-server's tools: our client lists them, completes an MRTR round
// (elicitation) over 2026-07-28, and a 2025-11-25 session (GET stream, DELETE
// on close) answers the same elicitation on the back channel.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { createEverythingServer } from "../../examples/everything-server/server.js";
import { startExpressExample, type RunningExample } from "../../examples/express/app.js";
import { startFastifyExample } from "../../examples/fastify/app.js";
import { startHonoExample } from "../../examples/hono/app.js";

const examples = [
  { name: "Express 5 (toNodeHandler after express.json())", start: startExpressExample },
  { name: "Fastify 5 (toNodeHandler with Fastify's parsed body)", start: startFastifyExample },
  { name: "Hono 4 (createHttpHandler on @hono/node-server)", start: startHonoExample },
];

let toolNames: string[];
beforeAll(async () => {
  const local = await Client.connect(createEverythingServer(), { mode: MODERN_PROTOCOL_VERSION });
  toolNames = (await local.listTools()).tools.map((tool) => tool.name);
  await local.close();
});

describe.each(examples)("$name", ({ start }) => {
  let running: RunningExample;
  beforeAll(async () => {
    running = await start();
  });
  afterAll(() => running.close());

  it("serves every tool of the everything-server", async () => {
    const client = await Client.connect(running.url);
    try {
      expect(client.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(toolNames);
      expect(await client.callTool("test_simple_text", {})).toMatchObject({ content: [{ type: "text", text: expect.any(String) }] });
    } finally {
      await client.close();
    }
  });

  it("completes an MRTR round: the server asks for a name, our client answers, the retry finishes", async () => {
    const asked: unknown[] = [];
    const client = await Client.connect(running.url, {
      onElicit: (params) => {
        asked.push(params);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    try {
      const result = await client.callTool("test_input_required_result_elicitation", {});
      expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
      expect(asked).toEqual([expect.objectContaining({ message: "What is your name?", requestedSchema: expect.objectContaining({ required: ["name"] }) })]);
    } finally {
      await client.close();
    }
  });

  it("holds a 2025-11-25 session whose elicitation comes on the back channel", async () => {
    const client = await Client.connect(running.url, {
      mode: "2025-11-25",
      onElicit: () => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } }),
    });
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      const result = await client.callTool("test_elicitation", { message: "Who are you?" });
      expect(result.content).toEqual([{ type: "text", text: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}' }]);
    } finally {
      await client.close();
    }
  });

  it("refuses a request whose Host is not a loopback name (DNS rebinding)", async () => {
    // fetch cannot set Host; node:http can, as a rebinding page's browser effectively does.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const outgoing = request(running.url, {
        method: "POST",
        headers: { host: "attacker.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
      });
      outgoing.on("response", (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      outgoing.on("error", reject);
      outgoing.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    });
    expect(status).toBe(403);
  });
});
