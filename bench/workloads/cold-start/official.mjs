// A cold start of the official SDK 2.4.0: import their server and client,
// connect in process over their linked InMemoryTransport pair (their
// in-process route; their client's default handshake is 2025-11-25), finish
// one call, close, exit. Prints the answer and the version, for the bench to check.
import { McpServer, InMemoryTransport } from "@modelcontextprotocol/server";
import { Client } from "@modelcontextprotocol/client";
import * as z from "zod/v4";
import { ECHO_TEXT } from "../fixtures.mjs";

const server = new McpServer({ name: "cold-start", version: "1.0.0" });
server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: "cold-start-client", version: "1.0.0" });
await client.connect(clientSide);
const result = await client.callTool({ name: "echo", arguments: { text: ECHO_TEXT } });
const protocolVersion = client.getNegotiatedProtocolVersion();
await client.close();
await server.close();
process.stdout.write(`${JSON.stringify({ text: result.content[0].text, protocolVersion })}\n`);
