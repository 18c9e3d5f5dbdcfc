// README "Transports": the same server over Streamable HTTP with bearer
// tokens, as a web-standard handler, and a client that connects by URL.
import { Client, type CallToolResult, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { createHttpHandler } from "mcp-roundtrip/server";
import { serveHttp } from "mcp-roundtrip/node";
import { createServer } from "./server.js";

/** Serves the README server on loopback; only the token `"let-me-in"` gets through. */
export async function serveWithTokens() {
  return serveHttp(createServer(), {
    port: 0, // any free port; the handle's url says which
    authorization: {
      resource: "http://localhost/mcp", // this server's public URL: the audience its tokens must name
      authorizationServers: ["https://auth.example.com"],
      verify: (token) => (token === "let-me-in" ? { clientId: "readme", subject: "alice", scopes: [] } : undefined),
    },
  });
}

/** The same server as `(Request) => Promise<Response>`, for Deno, Bun, workers or your own router. */
export const handler: (request: Request) => Promise<Response> = createHttpHandler(createServer());

/** Calls `provision` over HTTP with a bearer token. */
export async function callOverHttp(url: string): Promise<CallToolResult> {
  const transport = new StreamableHttpClientTransport(url, { token: "let-me-in" });
  const client = await Client.connect(transport, { onElicit: async () => ({ action: "accept", content: { region: "us-east-1" } }) });
  try {
    return await client.callTool("provision", { name: "orders" });
  } finally {
    await client.close();
  }
}

/** Spawns `script` (a built stdio server such as stdio-server.js) and calls `provision` over its stdin/stdout. */
export async function callOverStdio(script: string): Promise<CallToolResult> {
  const client = await Client.connect(
    { command: process.execPath, args: [script] },
    { onElicit: async () => ({ action: "accept", content: { region: "us-east-1" } }) },
  );
  try {
    return await client.callTool("provision", { name: "stdio" });
  } finally {
    await client.close(); // ends the child's stdin; serveStdio's `closed` resolves and the child exits
  }
}
