/**
 * Who an endpoint's 2025 sessions belong to: one record per identity (the
 * `authInfo` that opened them), shared by that identity's sessions. It is
 * also their peer, shared (see `session-keeper.ts`): a session passes itself
 * when it sends, so an idle session holds one reference for its owner, its
 * endpoint and its peer, inside its handshake record, itself shared.
 * Most servers have one: unauthenticated, every session is the nobody's.
 *
 * @internal
 */
import type { JsonRpcNotification, JsonRpcRequest } from "../../../protocol/jsonrpc/messages.js";
import { KEPT_BY, SEND_AS, type SessionKeeper, type SharedPeer } from "../../../protocol/session-keeper.js";
import type { ServerSession } from "../../types.js";
import type { SessionLimits } from "./session-types.js";

/** The endpoint as its sessions reach it. @internal */
export interface RealmEndpoint extends SessionKeeper {
  readonly limits: SessionLimits;
  /** Sends what `session` starts outside any request (on its GET stream, or kept until one opens). */
  sendAs(session: ServerSession, message: JsonRpcRequest | JsonRpcNotification): void;
}

/** One identity's sessions on one endpoint, and their peer. @internal */
export class Realm implements SharedPeer {
  /** Its sessions open on the endpoint: the endpoint drops the record with the last. */
  sessions = 0;
  /** Requests of its sessions being answered, and the bytes of their bodies. */
  busy = 0;
  busyBytes = 0;

  constructor(
    readonly endpoint: RealmEndpoint,
    /** A later request by another identity is treated as not knowing a session's id. */
    readonly owner: string | undefined,
  ) {}

  /** As a peer, it names the collection holding its sessions: the server holds no entry of its own for them. */
  get [KEPT_BY](): SessionKeeper {
    return this.endpoint;
  }

  [SEND_AS](session: ServerSession, message: JsonRpcRequest | JsonRpcNotification): void {
    this.endpoint.sendAs(session, message);
  }

  /** Shared by many sessions, it cannot tell whose a message is without being told (`SEND_AS`). */
  send(message: JsonRpcRequest | JsonRpcNotification): never {
    throw new Error(`A shared session peer cannot send ${"method" in message ? message.method : "a message"} without knowing the session`);
  }
}

/** An endpoint's realms, by owner: made with an identity's first session, dropped with its last. @internal */
export class Realms {
  readonly #endpoint: RealmEndpoint;
  readonly #byOwner = new Map<string | undefined, Realm>();

  constructor(endpoint: RealmEndpoint) {
    this.#endpoint = endpoint;
  }

  /** How many sessions `owner` holds. */
  count(owner: string | undefined): number {
    return this.#byOwner.get(owner)?.sessions ?? 0;
  }

  /** The realm of a new session of `owner`. */
  enter(owner: string | undefined): Realm {
    let realm = this.#byOwner.get(owner);
    if (realm === undefined) this.#byOwner.set(owner, (realm = new Realm(this.#endpoint, owner)));
    realm.sessions++;
    return realm;
  }

  /** A session of `realm` was forgotten. */
  leave(realm: Realm): void {
    if (--realm.sessions === 0 && this.#byOwner.get(realm.owner) === realm) this.#byOwner.delete(realm.owner);
  }
}
