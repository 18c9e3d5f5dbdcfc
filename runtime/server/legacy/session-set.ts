/**
 * The open 2025 sessions of one server, and the notifications that go to
 * all of them (a list changed) or to those subscribed (a resource updated).
 * Sessions of a transport that keeps its own collection (see
 * `session-keeper.ts`) are reached through it rather than held twice.
 *
 * @internal
 */
import type { SessionKeeper } from "../../protocol/session-keeper.js";
import type { Broadcastable } from "./types.js";

/** @internal */
export class SessionSet {
  readonly #sessions = new Set<Broadcastable>();
  /** Transports' collections holding sessions of this server; one that empties is dropped when the next is added or a broadcast passes. */
  readonly #keepers = new Set<SessionKeeper>();

  get size(): number {
    let size = this.#sessions.size;
    for (const keeper of this.#keepers) size += keeper.size;
    return size;
  }

  /** Holds `session`, or, when `keeper` holds it, remembers the keeper (once). */
  add(session: Broadcastable, keeper?: SessionKeeper): void {
    if (keeper === undefined) {
      this.#sessions.add(session);
      return;
    }
    for (const known of this.#keepers) if (known.size === 0) this.#keepers.delete(known); // a closed endpoint's, say
    this.#keepers.add(keeper);
  }

  delete(session: Broadcastable): void {
    this.#sessions.delete(session);
  }

  /** `notifications/<list>/list_changed` to every session. */
  listChanged(list: "tools" | "prompts" | "resources"): void {
    const notification = { jsonrpc: "2.0" as const, method: `notifications/${list}/list_changed` };
    for (const session of this.#all()) session.notify(notification);
  }

  /** `notifications/resources/updated` to the sessions subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    if (typeof uri !== "string" || uri === "") throw new TypeError("resourceUpdated: uri must be a non-empty string, the resource's URI as clients subscribe to it");
    for (const session of this.#all()) {
      if (session.isSubscribed(uri)) session.notify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
    }
  }

  /** Every session: those held here, then each keeper's (the sessions this server opened for it, so each is a `LegacySession`). */
  *#all(): Iterable<Broadcastable> {
    yield* this.#sessions;
    for (const keeper of [...this.#keepers]) {
      if (keeper.size === 0) this.#keepers.delete(keeper);
      else for (const session of keeper.sessions()) yield session as unknown as Broadcastable;
    }
  }
}
