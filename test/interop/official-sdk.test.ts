// Interop with the official TypeScript SDK 2.4.0 as a real peer over
// Streamable HTTP on 127.0.0.1, both directions, each finishing a tool call
// that takes one elicitation round (multi round-trip request).
import { createServer, type Server as NodeServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  McpServer as OfficialMcpServer,
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired as officialInputRequired,
} from "@modelcontextprotocol/server";
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client } from "mcp-roundtrip/client";
import { inputRequired, McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { bridge } from "./peers.js";

const CITY_SCHEMA = { type: "object" as const, properties: { city: { type: "string" as const } }, required: ["city"] };
const TEXT_ARGS = { type: "object" as const, properties: { text: { type: "string" as const } }, required: ["text"] };

describe("this SDK's client against an official SDK 2.4.0 server", () => {
  let server: NodeServer;
  let url: string;
  let closeHandler: () => Promise<void>;

  beforeAll(async () => {
    const handler = createMcpHandler(
      () => {
        const official = new OfficialMcpServer({ name: "official-weather", version: "2.4.0" });
        official.registerTool(
          "forecast",
          { description: "Asks which city, then forecasts", inputSchema: fromJsonSchema<{ text: string }>(TEXT_ARGS) },
          async ({ text }, ctx) => {
            const answer = acceptedContent(ctx.mcpReq.inputResponses, "city") as { city?: string } | undefined;
            if (!answer?.city) {
              return officialInputRequired({
                inputRequests: { city: officialInputRequired.elicit({ message: `Which city for "${text}"?`, requestedSchema: CITY_SCHEMA }) },
              });
            }
            return { content: [{ type: "text", text: `${text} in ${answer.city}: sunny` }] };
          },
        );
        return official;
      },
      { legacy: "reject" },
    );
    closeHandler = () => handler.close();
    server = createServer(bridge(handler));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  });
  afterAll(async () => {
    await closeHandler();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  it("discovers the server and completes a tool call that takes an elicitation round", async () => {
    const asked: string[] = [];
    const client = await Client.connect(url, {
      onElicit: (params) => {
        asked.push((params as { message: string }).message);
        return { action: "accept", content: { city: "Lisbon" } };
      },
    });
    try {
      expect(client.protocolVersion).toBe("2026-07-28");
      const tools = await client.listAllTools();
      expect(tools.map((tool) => tool.name)).toContain("forecast");
      const result = await client.callTool("forecast", { text: "Tomorrow" });
      expect(result.content).toEqual([{ type: "text", text: "Tomorrow in Lisbon: sunny" }]);
      expect(asked).toEqual(['Which city for "Tomorrow"?']);
    } finally {
      await client.close();
    }
  });
});

describe("an official SDK 2.4.0 client against this SDK's server", () => {
  let http: HttpServerHandle;

  beforeAll(async () => {
    const mcp = new McpServer({ name: "roundtrip-weather", version: "1.0.0" });
    mcp.tool("forecast", { description: "Asks which city, then forecasts", inputSchema: TEXT_ARGS }, (args, ctx) => {
      const answer = ctx.inputResponses?.city as { action?: string; content?: { city?: string } } | undefined;
      if (answer?.action !== "accept" || !answer.content?.city) {
        return inputRequired({
          inputRequests: {
            city: { method: "elicitation/create", params: { message: `Which city for "${String(args.text)}"?`, requestedSchema: CITY_SCHEMA } },
          },
          requestState: JSON.stringify({ text: args.text }),
        });
      }
      const state = JSON.parse(ctx.requestState ?? "{}") as { text?: string };
      return { content: [{ type: "text", text: `${state.text} in ${answer.content.city}: sunny` }] };
    });
    http = await serveHttp(mcp);
  });
  afterAll(() => http.close());

  it("connects pinned to 2026-07-28 and completes a tool call that takes an elicitation round", async () => {
    const client = new OfficialClient({ name: "official-client", version: "2.4.0" }, {
      capabilities: { elicitation: {} },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as never);
    const asked: string[] = [];
    client.setRequestHandler(
      "elicitation/create" as never,
      (async (request: { params: { message: string } }) => {
        asked.push(request.params.message);
        return { action: "accept", content: { city: "Porto" } };
      }) as never,
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(["forecast"]);
      const result = await client.callTool({ name: "forecast", arguments: { text: "Tomorrow" } });
      expect(result.content).toEqual([{ type: "text", text: "Tomorrow in Porto: sunny" }]);
      expect(asked).toEqual(['Which city for "Tomorrow"?']);
    } finally {
      await client.close();
    }
  });

  it("serves their default 2025-era handshake; a tool that asks by hand tells that client it needs 2026-07-28", async () => {
    // Their default mode starts with `initialize`, which opens a 2025 session here.
    const legacy = new OfficialClient({ name: "official-client", version: "2.4.0" }, { capabilities: { elicitation: {} } });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      expect(legacy.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(["forecast"]);
      await expect(legacy.callTool({ name: "forecast", arguments: { text: "Today" } })).rejects.toThrow(/needs a 2026-07-28 client/);
    } finally {
      await legacy.close();
    }
  });

  it('a server with legacy: "reject" refuses that handshake with -32022, and keeps serving 2026 clients', async () => {
    const strict = await serveHttp(
      new McpServer({ name: "roundtrip-strict", version: "1.0.0" }, { legacy: "reject" }).tool("t", { inputSchema: TEXT_ARGS }, (args) => ({
        content: [{ type: "text", text: `got ${String(args.text)}` }],
      })),
    );
    try {
      const legacy = new OfficialClient({ name: "official-client", version: "2.4.0" }, { capabilities: {} });
      await expect(legacy.connect(new StreamableHTTPClientTransport(new URL(strict.url)))).rejects.toThrow(/-32022|nsupported protocol version/);
      const client = new OfficialClient({ name: "official-client", version: "2.4.0" }, {
        capabilities: {},
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      } as never);
      await client.connect(new StreamableHTTPClientTransport(new URL(strict.url)));
      try {
        const result = await client.callTool({ name: "t", arguments: { text: "Today" } });
        expect(result.content).toEqual([{ type: "text", text: "got Today" }]);
      } finally {
        await client.close();
      }
    } finally {
      await strict.close();
    }
  });
});
