/**
 * The 2025 path, loaded on the first 2025 message: a server that only ever
 * meets 2026-07-28 clients never imports it (nor the 2025 validators it
 * pulls in), which keeps its cold start short.
 *
 * @internal
 */
import type { JsonRpcNotification, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import type { RequestContext } from "../../protocol/context.js";
import type { ServerSession, SessionPeer } from "../../protocol/contracts.js";
import { sessionLabel, type LegacyHost } from "./host.js";
import type { LegacySession } from "./session.js";
import type { Broadcastable } from "./types.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";

type LegacyModules = typeof import("./loaded.js");

let loading: Promise<LegacyModules> | undefined;

/** The 2025 modules, imported once. @internal */
export function loadLegacy(): Promise<LegacyModules> {
  loading ??= import("./loaded.js");
  return loading;
}

/**
 * A 2025 session whose implementation loads with its first message. Its id
 * exists at once (the HTTP layer names it in `Mcp-Session-Id` after that
 * first `initialize`); everything else waits for the real session.
 * @internal
 */
export class LazySession implements ServerSession, Broadcastable {
  readonly id: string = globalThis.crypto.randomUUID();
  #real: LegacySession | undefined;
  #creating: Promise<LegacySession> | undefined;
  #closed = false;
  readonly #host: LegacyHost;
  readonly #peer: SessionPeer;

  constructor(host: LegacyHost, peer: SessionPeer) {
    this.#host = host;
    this.#peer = peer;
  }

  get protocolVersion(): string | undefined {
    return this.#real?.protocolVersion;
  }

  get closed(): boolean {
    return this.#real?.closed ?? this.#closed;
  }

  async handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
    if (this.#closed && this.#real === undefined) {
      const id = (message as { id?: unknown } | null)?.id;
      const error = { code: -32600, message: "Invalid Request: this session has ended; start a new one with initialize" };
      return typeof id === "string" || typeof id === "number" ? errorResponse(id, error) : undefined;
    }
    return (await this.#session()).handle(message, context);
  }

  notify(notification: JsonRpcNotification): void {
    this.#real?.notify(notification); // before its first message a session has not initialized: nothing to tell it
  }

  isSubscribed(uri: string): boolean {
    return this.#real?.isSubscribed(uri) ?? false;
  }

  close(reason?: string): void {
    if (this.#real !== undefined) return this.#real.close(reason);
    if (this.#closed) return;
    this.#closed = true;
    this.#host.logger.debug(`2025 session ${sessionLabel(this.id)} closed before initialize: ${reason ?? "The session was closed."}`, {
      session: sessionLabel(this.id),
      reason: reason ?? "The session was closed.",
    });
    this.#host.sessionClosed(this);
  }

  #session(): Promise<LegacySession> {
    this.#creating ??= loadLegacy().then(({ LegacySession }) => {
      // Closed while loading: the real session starts closed too, and answers so.
      const real = new LegacySession(this.#host, this.#peer, this.id, this);
      if (this.#closed) real.close();
      this.#real = real;
      return real;
    });
    return this.#creating;
  }
}
