// toNodeHandler on a bare node:http server: it reads the body itself, takes a
// body some middleware already parsed (object, string or bytes, on req.body
// or as the third argument), applies the body limit to it, and explains a
// body that was consumed and left unparsed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { toNodeHandler } from "mcp-roundtrip/node";
import { McpServer } from "mcp-roundtrip/server";
import { mcpHeaders, rpc } from "./helpers.js";

function demoServer(): McpServer {
  const server = new McpServer({ name: "node-handler", version: "1.0.0" });
  server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({
    content: [{ type: "text", text: String(text) }],
  }));
  return server;
}

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

/** A node:http server whose requests first go through `middleware`, then to `handle`. */
async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}/mcp`;
}

/** Reads the whole body, as a JSON parser middleware would. */
async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const call = (url: string, text = "hi") =>
  fetch(url, { method: "POST", headers: mcpHeaders("tools/call", "echo"), body: JSON.stringify(rpc("tools/call", { name: "echo", arguments: { text } })) });

const textOf = async (response: Response) => ((await response.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text;

describe("toNodeHandler", () => {
  it("reads the body itself when nothing parsed it", async () => {
    const mcp = toNodeHandler(demoServer());
    const url = await listen((req, res) => void mcp(req, res));
    expect(await textOf(await call(url))).toBe("hi");
  });

  it.each([
    ["an object on req.body", (text: string) => JSON.parse(text) as unknown, "req.body"],
    ["a string as the third argument", (text: string) => text, "argument"],
    ["bytes on req.body", (text: string) => Buffer.from(text), "req.body"],
  ] as const)("takes %s from a middleware that consumed the stream", async (_, parse, where) => {
    const mcp = toNodeHandler(demoServer());
    const url = await listen((req, res) => {
      void readAll(req).then((text) => {
        if (where === "req.body") {
          (req as { body?: unknown }).body = parse(text);
          void mcp(req, res, () => {});
        } else void mcp(req, res, parse(text));
      });
    });
    expect(await textOf(await call(url, "parsed"))).toBe("parsed");
  });

  it("applies maxBodyBytes to a parsed body", async () => {
    const mcp = toNodeHandler(demoServer(), { maxBodyBytes: 200 });
    const url = await listen((req, res) => {
      void readAll(req).then((text) => mcp(req, res, JSON.parse(text)));
    });
    const response = await call(url, "x".repeat(300));
    expect(response.status).toBe(413);
  });

  it("explains a body a middleware consumed and left unparsed", async () => {
    const errors: unknown[] = [];
    const mcp = toNodeHandler(demoServer(), { onError: (error) => errors.push(error) });
    const url = await listen((req, res) => {
      void readAll(req).then(() => mcp(req, res));
    });
    const response = await call(url);
    expect(response.status).toBe(400);
    expect(String(errors[0])).toContain("mount the MCP handler before that middleware");
  });

  it("refuses a server without handle()", () => {
    expect(() => toNodeHandler({} as never)).toThrow(/needs a server with a handle/);
  });
});
