// The published `@modelcontextprotocol/sdk` 1.32.2 client (a 2025 session over Streamable HTTP)
// whose elicitation handler answers the wrong shape: our server asks once more with the reason
// in the message, then ends the call with -32602 naming the input key and /name, instead of
// asking until legacySessions.maxRounds runs out.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { McpServer, elicit } from "mcp-roundtrip/server";

const nameForm = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

describe("sdk 1.32.2 client answering an elicitation with the wrong shape", () => {
  let http: HttpServerHandle;
  const debug: string[] = [];

  beforeAll(async () => {
    const logger = { debug: (message: string) => void debug.push(message), warn() {}, error() {} };
    const server = new McpServer({ name: "greeter-2025", version: "1.0.0" }, { logger, logLevel: "debug" });
    server.tool(
      "greet",
      { inputSchema: { type: "object" }, needs: (need) => need.add("confirm", () => elicit({ message: "Your name?", schema: nameForm })) },
      (_args, { confirm }) => ({
        content: [{ type: "text", text: confirm.action === "accept" ? `Hello, ${confirm.content.name}` : "no name" }],
      }),
    );
    http = await serveHttp(server, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => http.close());

  it("is asked twice, the second time with the reason, then gets -32602 naming confirm and /name", async () => {
    const client = new Client({ name: "sdk1-bad-answer", version: "1.32.2" }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { name: 42 as unknown as string } };
    });
    onTestFinished(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));

    const error = (await client.callTool({ name: "greet", arguments: {} }).catch((thrown: unknown) => thrown)) as SdkMcpError;
    expect(error).toBeInstanceOf(SdkMcpError);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('The answer for input "confirm" did not fit its request, again after it was asked once more: /content/name must be a string');
    expect(error.data).toEqual({ reason: "invalid_input_response", inputKey: "confirm", issues: [{ path: "/content/name", message: "must be a string" }] });
    expect(asked).toEqual(["Your name?", "Your name? (Your previous answer was not accepted: /content/name must be a string)"]);
    expect(debug.at(-1)).toBe(
      'tools/call "greet": the answer for "confirm" (asked once more in round 2) did not fit again (/content/name must be a string); ending with -32602',
    );
  });
});
