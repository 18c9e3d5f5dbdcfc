// A cold start of mcp-roundtrip: import the server and the client, connect
// in process, finish one call, close, exit. `node ours.mjs [mode]`, where
// mode is the client's (default: the client's own default, which lands on
// 2026-07-28; "2025-11-25" opens a legacy session instead). Prints the
// answer and the version it was spoken in, for the bench to check.
import { McpServer } from "mcp-roundtrip/server";
import { Client } from "mcp-roundtrip/client";
import { ECHO_TEXT } from "../fixtures.mjs";

const mode = process.argv[2];
const server = new McpServer({ name: "cold-start", version: "1.0.0" });
server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
const client = await Client.connect(server, mode === undefined ? {} : { mode });
const result = await client.callTool("echo", { text: ECHO_TEXT });
const protocolVersion = client.protocolVersion;
await client.close();
process.stdout.write(`${JSON.stringify({ text: result.content[0].text, protocolVersion })}\n`);
