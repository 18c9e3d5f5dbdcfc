/**
 * Who an endpoint's 2025 sessions belong to: one record per identity (the
 * `authInfo` that opened them), shared by that identity's sessions, so an
 * idle session holds one reference for its owner and its endpoint both.
 * Most servers have one: unauthenticated, every session is the nobody's.
 *
 * @internal
 */
import type { SessionKeeper } from "../../../protocol/session-keeper.js";
import type { SessionLimits } from "./session-types.js";

/** The endpoint as its sessions reach it. @internal */
export interface RealmEndpoint extends SessionKeeper {
  readonly limits: SessionLimits;
}

/** One identity's sessions on one endpoint. @internal */
export class Realm {
  /** Its sessions open on the endpoint: the endpoint drops the record with the last. */
  sessions = 0;

  constructor(
    readonly endpoint: RealmEndpoint,
    /** A later request by another identity is treated as not knowing a session's id. */
    readonly owner: string | undefined,
  ) {}
}

/** An endpoint's realms, by owner: made with an identity's first session, dropped with its last. @internal */
export class Realms {
  readonly #endpoint: RealmEndpoint;
  readonly #byOwner = new Map<string | undefined, Realm>();

  constructor(endpoint: RealmEndpoint) {
    this.#endpoint = endpoint;
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
