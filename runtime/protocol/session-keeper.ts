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
import type { ServerSession, SessionPeer } from "./contracts.js";
import type { JsonRpcNotification, JsonRpcRequest } from "./jsonrpc/messages.js";

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

/**
 * The key of an optional method on a `SessionPeer` shared by many sessions
 * (one per HTTP endpoint and identity, rather than one per session): the
 * session passes itself when it sends, so the peer knows whose message it is.
 * @internal
 */
export const SEND_AS: unique symbol = Symbol.for("mcp-roundtrip.sendAs");
/** The key, on a session a {@link SessionKeeper} holds, of its last use, on the keeper's clock (the keeper sets it; 0 until then). @internal */
export const LAST_USE: unique symbol = Symbol.for("mcp-roundtrip.sessionLastUse");
/** The key, on such a session, of the transport's data for it (`undefined` until the transport sets it). @internal */
export const TRANSPORT_DATA: unique symbol = Symbol.for("mcp-roundtrip.sessionTransportData");
/** The key, on such a session, of the peer it was opened with. @internal */
export const PEER_OF: unique symbol = Symbol.for("mcp-roundtrip.sessionPeer");

/** A peer that may serve many sessions: told which one sends. @internal */
export interface SharedPeer extends SessionPeer {
  [SEND_AS](session: ServerSession, message: JsonRpcRequest | JsonRpcNotification): void | Promise<void>;
}

/**
 * A session as a transport that keeps its sessions holds it: the session is
 * the only per-session object while idle, so it carries its last use (idle
 * expiry) and one slot for the transport's data, made once it is used.
 * @internal
 */
export interface KeptSession extends ServerSession {
  [LAST_USE]: number;
  [TRANSPORT_DATA]: unknown;
  readonly [PEER_OF]: SessionPeer;
}

/** Sends `message` of `session` through `peer`, telling a shared peer whose it is. @internal */
export function sendThrough(peer: SessionPeer, session: ServerSession, message: JsonRpcRequest | JsonRpcNotification): void | Promise<void> {
  const sendAs = (peer as Partial<SharedPeer>)[SEND_AS];
  return sendAs === undefined ? peer.send(message) : sendAs.call(peer, session, message);
}

/** Hosts whose sessions honour {@link SEND_AS} and are {@link KeptSession}s: a transport may open them all on one shared peer. */
const sharing = new WeakSet<object>();

/** Marks `host` as opening sessions that honour a shared peer. @internal */
export function opensKeptSessions(host: object): void {
  sharing.add(host);
}

/** True when `host` was marked by {@link opensKeptSessions}; any other host gets a peer of its own per session. @internal */
export function acceptsSharedPeer(host: object): boolean {
  return sharing.has(host);
}
