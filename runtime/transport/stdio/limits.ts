/**
 * The stdio transport's line limit, apart from the framing code so the
 * entries that export it (`mcp-roundtrip/client`, `mcp-roundtrip/node`)
 * carry no `node:stream` type into their declarations.
 *
 * @module
 */

/** Longest line accepted from the peer, in bytes: a guard against unbounded buffering. Default 4 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
