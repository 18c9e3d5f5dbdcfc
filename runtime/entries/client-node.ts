/**
 * `mcp-roundtrip/client` under the `node` condition (Node, Deno, Bun):
 * every name of the web entry (`client.ts`), with the real
 * {@link StdioClientTransport}, which spawns a server and speaks
 * newline-delimited JSON-RPC over its stdin/stdout. A local export wins
 * over a name `export *` brings, so this one replaces the web entry's
 * refusal.
 *
 * @packageDocumentation
 */
export * from "./client.js";
export { StdioClientTransport } from "../transport/stdio/client.js";
