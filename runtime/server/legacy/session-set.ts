/**
 * The open 2025 sessions of one server, and the notifications that go to
 * all of them (a list changed) or to those subscribed (a resource updated).
 *
 * @internal
 */
import type { Broadcastable } from "./types.js";

/** @internal */
export class SessionSet {
  readonly #sessions = new Set<Broadcastable>();

  get size(): number {
    return this.#sessions.size;
  }

  add(session: Broadcastable): void {
    this.#sessions.add(session);
  }

  delete(session: Broadcastable): void {
    this.#sessions.delete(session);
  }

  /** `notifications/<list>/list_changed` to every session. */
  listChanged(list: "tools" | "prompts" | "resources"): void {
    const notification = { jsonrpc: "2.0" as const, method: `notifications/${list}/list_changed` };
    for (const session of this.#sessions) session.notify(notification);
  }

  /** `notifications/resources/updated` to the sessions subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    if (typeof uri !== "string" || uri === "") throw new TypeError("resourceUpdated: uri must be a non-empty string, the resource's URI as clients subscribe to it");
    for (const session of this.#sessions) {
      if (session.isSubscribed(uri)) session.notify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
    }
  }
}
