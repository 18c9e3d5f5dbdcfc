/**
 * The root entry holds only what every side shares: errors and JSON-RPC
 * message shapes. Server, client, transports and crypto live behind their own
 * subpaths (`mcp-roundtrip/server`, `mcp-roundtrip/client`, …) so importing
 * one never drags in the others.
 *
 * @packageDocumentation
 */
export * from "./protocol/jsonrpc/errors.js";
export * from "./protocol/jsonrpc/messages.js";
