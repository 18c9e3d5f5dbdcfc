/**
 * How a transport that keeps its 2025 sessions in a collection of its own
 * (Streamable HTTP, by `Mcp-Session-Id`) spares the server a second entry
 * per session: its peers name that collection, and the server broadcasts
 * (list changed, resource updated) through it instead of adding each session
 * to a set of its own. At ten thousand idle sessions a set's entries alone
 * are a third of a megabyte.
 *
 * @module
 * @internal
 */
import type { ServerSession } from "./contracts.js";

/**
 * The key, on a `SessionPeer`, of the {@link SessionKeeper} holding the
 * session that peer serves. Registered (`Symbol.for`) so separately bundled
 * copies of this module agree on it.
 * @internal
 */
export const KEPT_BY: unique symbol = Symbol.for("mcp-roundtrip.sessionKeptBy");

/** A transport's collection of the sessions it opened, as the server broadcasts through it. @internal */
export interface SessionKeeper {
  /** How many sessions it holds. */
  readonly size: number;
  /** The sessions it holds, each as the server opened it. */
  sessions(): Iterable<ServerSession>;
}

/** The keeper a peer names, if any. @internal */
export function keeperOf(peer: object): SessionKeeper | undefined {
  return (peer as { [KEPT_BY]?: SessionKeeper })[KEPT_BY];
}
