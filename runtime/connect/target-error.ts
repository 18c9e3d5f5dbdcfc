/**
 * What `Client.connect` says of a target it cannot use, loaded only then
 * (error-path text kept out of the browser entry).
 *
 * @internal
 * @module
 */

/** The kinds of target `targets.ts` accepts, described in the order its table tries them. */
const ACCEPTED = [
  "a ClientTransport",
  "a MessageHandler (Server, McpServer)",
  'an http(s) URL ("http://127.0.0.1:3000/mcp")',
  "a { command, args } object",
] as const;

/**
 * The error for a target that matches no row of the table.
 * @internal
 */
export function unknownTarget(target: unknown): TypeError {
  const named = typeof target === "string" ? JSON.stringify(target) : target === null ? "null" : typeof target;
  return new TypeError(`Client.connect cannot use ${named} as a target; pass ${ACCEPTED.join(", ")}.`);
}
