// This client pinned to 2025-11-25 against this SDK's own dual-era server:
// the same declared need reaches onElicit as a back-channel request over a
// 2025 session (HTTP with its session id, and stdio), while mode "auto"
// keeps the same server on the newest modern revision (2026-07-28 today) and multi round-trip.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, InputResponseInvalid, MODERN_PROTOCOL_VERSION, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { McpServer, elicit } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";

const regionForm = { type: "object", properties: { region: { type: "string" } }, required: ["region"] } as const;

function provisioner() {
  const mcp = new McpServer({ name: "own-dual-era", version: "1.0.0" });
  mcp.tool(
    "provision",
    { inputSchema: { type: "object" }, needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })) },
    (_args, { region }) => ({ content: [{ type: "text", text: `in ${region.action === "accept" ? region.content.region : "nowhere"}` }] }),
  );
  return mcp;
}

describe("this client against this SDK's server, both eras over HTTP", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(provisioner());
  });
  afterAll(() => http.close());

  it("pinned to 2025-11-25: a session, and the need asked over the back channel", async () => {
    const keys: Array<string | undefined> = [];
    const transport = new StreamableHttpClientTransport(http.url);
    const client = await Client.connect(transport, {
      mode: "2025-11-25",
      onElicit: (params, context) => {
        keys.push(context.key);
        expect((params as { message: string }).message).toBe("Which region?");
        return { action: "accept", content: { region: "eu-west-1" } };
      },
    });
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
      expect((await client.callTool("provision", {})).content).toEqual([{ type: "text", text: "in eu-west-1" }]);
      expect(keys).toEqual([undefined]);
    } finally {
      await client.close();
    }
    expect(transport.sessionId).toBeUndefined();
  });

  it("pinned to 2025-11-25: an onElicit answer that does not fit the form is refused to the server with an error, and the call throws InputResponseInvalid", async () => {
    let asked = 0;
    const transport = new StreamableHttpClientTransport(http.url);
    const client = await Client.connect(transport, {
      mode: "2025-11-25",
      onElicit: () => {
        asked++;
        return { action: "accept", content: { region: 42 } } as never;
      },
    });
    try {
      const error = (await client.callTool("provision", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
      expect(error).toBeInstanceOf(InputResponseInvalid);
      expect(error.message).toBe(
        "onElicit answer: /content/region must be a string. The server was answered with an error instead; make the callback's answer fit the request.",
      );
      expect(error).toMatchObject({ key: undefined, method: "elicitation/create", issues: [{ path: "/content/region", message: "must be a string" }] });
      expect(asked).toBe(1);
      // The session is still usable: the server was answered, not left waiting.
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["provision"]);
    } finally {
      await client.close();
    }
  });

  it("auto: stays on the newest modern revision, where the same need is a multi round-trip input request", async () => {
    const keys: Array<string | undefined> = [];
    const client = await Client.connect(http.url, {
      onElicit: (_params, context) => {
        keys.push(context.key);
        return { action: "accept", content: { region: "us-east-2" } };
      },
    });
    try {
      expect(client.protocolVersion).toBe(MODERN_PROTOCOL_VERSION);
      expect((await client.callTool("provision", {})).content).toEqual([{ type: "text", text: "in us-east-2" }]);
      expect(keys).toEqual(["region"]);
    } finally {
      await client.close();
    }
  });
});
