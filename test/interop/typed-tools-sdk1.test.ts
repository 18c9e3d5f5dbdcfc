// A typed tool (zod 4 inputSchema with a transform, declared needs) called by the published
// @modelcontextprotocol/sdk 1.32.2 client over Streamable HTTP: the 2025 call, its elicitation over the
// session, and the handler receiving zod's output.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import * as z from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { McpServer, elicit } from "mcp-roundtrip/server";

const confirm = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;
const seen: unknown[] = [];

function deployServer(): McpServer {
  return new McpServer({ name: "typed-deploy", version: "1.0.0" }).tool(
    "deploy",
    {
      inputSchema: z.object({ app: z.string().transform((name) => name.toLowerCase()), replicas: z.number().int().default(2) }),
      needs: (need) => need.add("confirm", (args) => elicit({ message: `Deploy ${args.app} x${args.replicas}?`, schema: confirm })),
    },
    (args, { confirm: answer }) => {
      seen.push(args);
      return { content: [{ type: "text", text: answer.action === "accept" && answer.content.yes ? `deployed ${args.app} x${args.replicas}` : "kept" }] };
    },
  );
}

describe("a typed tool and the sdk 1.32.2 client", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(deployServer(), { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => http.close());

  it("reaches the typed handler with zod's output after the elicitation over the session", async () => {
    const client = new Client({ name: "sdk1", version: "1.32.2" }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { yes: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    onTestFinished(() => client.close());
    const listed = await client.listTools();
    expect(listed.tools[0]!.inputSchema).toMatchObject({
      type: "object",
      properties: { app: { type: "string" }, replicas: { type: "integer", default: 2 } },
      required: ["app"],
    });
    const result = await client.callTool({ name: "deploy", arguments: { app: "Orders" } });
    expect(result.content).toEqual([{ type: "text", text: "deployed orders x2" }]);
    expect(asked).toEqual(["Deploy orders x2?"]);
    expect(seen).toEqual([{ app: "orders", replicas: 2 }]);
  });
});

describe("a zod elicitation form and the sdk 1.32.2 client", () => {
  const profile = z.object({
    name: z
      .string()
      .trim()
      .min(2)
      .transform((name) => name.toUpperCase()),
    plan: z.enum(["free", "pro"]).default("free"),
  });
  let http: HttpServerHandle;
  const received: unknown[] = [];
  beforeAll(async () => {
    const server = new McpServer({ name: "typed-forms", version: "1.0.0" }).tool(
      "signup",
      { needs: (need) => need.add("profile", () => elicit({ message: "Your profile?", schema: profile })) },
      (_args, { profile: answer }) => {
        received.push(answer);
        return { content: [{ type: "text", text: answer.action === "accept" ? `${answer.content.name} on ${answer.content.plan}` : answer.action }] };
      },
    );
    http = await serveHttp(server, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => http.close());

  it("is sent zod's JSON Schema over the session, and the handler receives zod's output", async () => {
    const client = new Client({ name: "sdk1", version: "1.32.2" }, { capabilities: { elicitation: {} } });
    const schemas: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      schemas.push((request.params as { requestedSchema?: unknown }).requestedSchema);
      return { action: "accept", content: { name: " ada " } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    onTestFinished(() => client.close());
    const result = await client.callTool({ name: "signup", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "ADA on free" }]);
    // The sdk's own request schema parses away the "$schema" member; the rest is zod's JSON Schema as sent.
    const { $schema: _dialect, ...sent } = z.toJSONSchema(profile, { io: "input" });
    expect(schemas).toEqual([sent]);
    expect(received).toEqual([{ action: "accept", content: { name: "ADA", plan: "free" } }]);
  });
});
