/**
 * A 2025 session of a `SessionHost` other than this package's servers (an
 * application's own): such a host knows nothing of a shared peer, so each of
 * its sessions gets one of these as its peer, which also holds what the
 * endpoint keeps of the session (its last use, its traffic once used) and
 * passes the rest to the host's session.
 *
 * @internal
 */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { ClassifiedMessage } from "../../../protocol/message.js";
import type { Answered } from "../../../protocol/contracts.js";
import { LAST_USE, PEER_OF, TRANSPORT_DATA, type KeptSession } from "../../../protocol/session-keeper.js";
import type { RequestContext, ServerSession, SessionHost, SessionPeer } from "../../types.js";
import type { Realm } from "./session-realm.js";

/** @internal */
export class ForeignSession implements KeptSession, SessionPeer {
  /** Set by the endpoint, on its clock. */
  [LAST_USE] = 0;
  [TRANSPORT_DATA]: unknown = undefined;
  readonly [PEER_OF]: Realm;
  readonly #session: ServerSession;

  constructor(host: SessionHost, realm: Realm) {
    this[PEER_OF] = realm;
    this.#session = host.openSession(this);
  }

  get id(): string {
    return this.#session.id;
  }

  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }

  get closed(): boolean {
    return this.#session.closed;
  }

  handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
    return this.#session.handle(message, context);
  }

  /** The host's session as classified when it takes that, else as decoded. */
  handleClassified(message: ClassifiedMessage, context?: RequestContext): Answered {
    const session = this.#session;
    return session.handleClassified !== undefined ? session.handleClassified(message, context) : session.handle(message.message, context);
  }

  close(reason?: string): void {
    this.#session.close(reason);
  }

  /** As the session's peer: what the host's session sends outside any request. */
  send(message: JsonRpcRequest | JsonRpcNotification): void {
    this[PEER_OF].endpoint.sendAs(this, message);
  }
}
