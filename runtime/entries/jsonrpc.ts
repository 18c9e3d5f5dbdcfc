/**
 * The JSON-RPC basics both sides share: {@link McpError} and the error
 * codes, the message shapes and their guards. Not an entry of its own:
 * `mcp-roundtrip/server` and `mcp-roundtrip/client` both re-export it (the
 * same module, so an `McpError` thrown on one side is `instanceof` on the
 * other in one process).
 *
 * @module
 */
export * from "../protocol/jsonrpc/errors.js";
export * from "../protocol/jsonrpc/messages.js";
