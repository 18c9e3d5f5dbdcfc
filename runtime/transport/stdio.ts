/**
 * The stdio transport (MCP 2026-07-28): newline-delimited JSON-RPC over a
 * child process's standard streams. {@link serveStdio} runs a server on
 * this process's stdin/stdout; {@link StdioClientTransport} spawns a server
 * and talks to it.
 *
 * @packageDocumentation
 */
export { DEFAULT_MAX_LINE_BYTES } from "./stdio/framing.js";
export { serveStdio, type ServeStdioOptions, type StdioServerHandle } from "./stdio/server.js";
export { StdioClientTransport, type StdioClientOptions } from "./stdio/client.js";
export { childEnvironment, DEFAULT_INHERITED_ENV } from "./stdio/env.js";
export type { ClientTransport, MessageHandler } from "./types.js";
