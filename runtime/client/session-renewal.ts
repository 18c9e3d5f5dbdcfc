/**
 * A 2025 HTTP session the server lost, started again: "When a client
 * receives HTTP 404 in response to a request containing an
 * MCP-Session-Id, it MUST start a new session" (2025-11-25 transports,
 * "Session Management" 4). Part of the lazily loaded 2025 handshake, so a
 * client of modern servers never loads it; what it shares with the main
 * modules comes in the {@link RenewalKit}.
 *
 * @internal
 * @module
 */
import type { JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { Connection, SessionSender } from "./connection.js";
import type { ClientClosed, SessionExpired } from "./errors.js";

/** What this module borrows from the client's main modules. @internal */
export interface RenewalKit {
  readonly ClientClosed: typeof ClientClosed;
  readonly SessionExpired: typeof SessionExpired;
}

/**
 * The sender of `connection`'s requests in a 2025 HTTP session: a request
 * the server answers with a lost session starts a new one (`renew`) and is
 * sent once more. Once per request, so a server that keeps losing sessions
 * gets a clear error, not a loop; one renewal at a time, and a request that
 * went out before the last renewal is only sent again.
 *
 * @internal
 */
export function renewingSessions(connection: Connection, renew: () => Promise<void>, { ClientClosed, SessionExpired }: RenewalKit): SessionSender {
  /** Counts renewed sessions, so a request sent before a renewal just retries instead of renewing again. */
  let generation = 0;
  let renewing: Promise<void> | undefined;
  const renewOnce = (seen: number): Promise<void> => {
    if (seen !== generation) return Promise.resolve();
    if (connection.isClosed) return Promise.reject(new ClientClosed());
    renewing ??= renew()
      .then(() => {
        generation++;
      })
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  };
  return async (message: JsonRpcRequest, send: (message: JsonRpcRequest) => Promise<JsonRpcResponse>, signal: AbortSignal | undefined) => {
    const seen = generation;
    try {
      return await send(message);
    } catch (error) {
      if (!isSessionLost(error)) throw error;
      try {
        await renewOnce(seen);
      } catch (failure) {
        signal?.throwIfAborted();
        if (failure instanceof ClientClosed) throw failure;
        throw new SessionExpired(
          `The server lost this client's session (HTTP 404 to its Mcp-Session-Id), and starting a new one failed: ` +
            `${failure instanceof Error ? failure.message : String(failure)} Connect again with Client.connect once the server is reachable.`,
          { cause: failure },
        );
      }
      try {
        return await send({ ...message, id: connection.nextId() });
      } catch (again) {
        if (!isSessionLost(again)) throw again;
        throw new SessionExpired(
          `The server lost this client's session (HTTP 404 to its Mcp-Session-Id); a new session was started, and the server ` +
            `lost that one at once too. It may be restarting, or run several instances behind a load balancer that does not ` +
            `keep a session on one instance. Connect again with Client.connect once the server is stable.`,
          { cause: again },
        );
      }
    }
  };
}

/** The transport's verdict that the server ended the session (by shape, so no HTTP module is needed here). */
function isSessionLost(error: unknown): boolean {
  return (error as { sessionLost?: unknown } | null)?.sessionLost === true;
}
