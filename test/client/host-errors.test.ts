// The errors an agent host catches say what went wrong, whichever protocol
// generation the server speaks: a callback that fails throws
// InputRequestFailed from a 2026-07-28 server and from a 2025 session alike;
// a bad target names itself and the accepted forms; an endpoint that is not
// there is named.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, HttpTransportError, InputRequestFailed, InputResponseInvalid } from "mcp-roundtrip/client";
import { McpServer, elicit } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";

const form = { type: "object", properties: { email: { type: "string", format: "email" } }, required: ["email"] } as const;

function asking() {
  const mcp = new McpServer({ name: "asking", version: "1.0.0" });
  mcp.tool(
    "subscribe",
    { inputSchema: { type: "object" }, needs: (need) => need.add("email", () => elicit({ message: "Your email?", schema: form })) },
    (_args, { email }) => ({ content: [{ type: "text", text: email.action === "accept" ? `subscribed ${email.content.email}` : "not subscribed" }] }),
  );
  return mcp;
}

describe("one error model, both generations of this SDK's server over HTTP", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(asking());
  });
  afterAll(() => http.close());

  it.each(["auto", "2025-11-25"] as const)("mode %s: a throwing callback is InputRequestFailed, a misfit answer InputResponseInvalid", async (mode) => {
    let answer: () => unknown = () => {
      throw new Error("the dialog crashed");
    };
    const client = (await Client.connect(http.url, { mode, onElicit: () => answer() as never })) as Client;
    try {
      const failed = await client.callTool("subscribe", {}).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(InputRequestFailed);
      expect(failed).toMatchObject({ name: "InputRequestFailed", method: "elicitation/create", key: mode === "auto" ? "email" : undefined });
      expect((failed as Error).message).toMatch(/onElicit callback failed.*the dialog crashed/);
      expect(((failed as Error).cause as Error).message).toBe("the dialog crashed");

      answer = () => ({ action: "accept", content: { email: "nope" } });
      const invalid = await client.callTool("subscribe", {}).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(InputResponseInvalid);
      expect(invalid).toMatchObject({ issues: [{ path: "/content/email", message: expect.stringMatching(/email/) }] });

      answer = () => ({ action: "accept", content: { email: "ada@example.com" } });
      expect((await client.callTool("subscribe", {})).content).toEqual([{ type: "text", text: "subscribed ada@example.com" }]);
    } finally {
      await client.close();
    }
  });
});

describe("bad targets and missing endpoints", () => {
  it("a string that is no http(s) URL is named, with the forms Client.connect takes", async () => {
    const error = await Client.connect("htp:/oops").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'Client.connect cannot use "htp:/oops" as a target; pass a ClientTransport, a MessageHandler (Server, McpServer), ' +
        'an http(s) URL ("http://127.0.0.1:3000/mcp"), a { command, args } object.',
    );
  });

  it("a 404 to the first request names the URL and says to check it", async () => {
    const server = createServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wrong`;
    try {
      const error = await Client.connect(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpTransportError);
      expect(error).toMatchObject({ status: 404 });
      expect((error as Error).message).toBe(`initialize to ${url} failed with HTTP 404 Not Found. Check the URL.`);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
