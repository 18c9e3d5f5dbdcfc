/**
 * What a 2025 session holds only once it is used beyond its handshake: the
 * client's log level and subscriptions, the requests the server sent the
 * client and waits on, the client's requests being answered. An idle
 * session (most of a busy server's) holds none of it; the session makes one
 * of these on its first use and keeps it.
 *
 * @internal
 */
import type { LoggingLevel } from "../../protocol/types.js";
import type { RequestContextImpl } from "../context.js";
import type { Handshake } from "./handshake.js";
import type { PendingRequests } from "./pending-requests.js";
import type { FlightTable } from "../../protocol/flight-table.js";

/** The working state of a 2025 session in use. Every field is assigned here, so all instances share one shape. @internal */
export class SessionActivity {
  /** The handshake as it stands (the session's one slot held it until this was made). */
  agreed: Handshake;
  /** The session ended (rare enough to be kept here rather than in every idle session). */
  closed = false;
  /** The level the client asked for with `logging/setLevel`, if any. */
  logLevel: LoggingLevel | undefined = undefined;
  /** The id of the server's last request to the client. */
  nextId = 0;
  subscriptions: Set<string> | undefined = undefined;
  /** The server's requests to the client, by id, with their one deadline timer. */
  waiting: PendingRequests | undefined = undefined;
  /** The client's requests being answered, by key: for `notifications/cancelled` (not a Map: see FlightTable). */
  answering: FlightTable<RequestContextImpl> | undefined = undefined;
  /** Settles when the client says `notifications/initialized` (made only if a request to the client had to wait for it). */
  initialized: Promise<void> | undefined = undefined;
  markInitialized: (() => void) | undefined = undefined;
  /** What the transport keeps of the session once used (its streams, over HTTP): the transport's slot, made with this. */
  transport: unknown = undefined;

  constructor(agreed: Handshake) {
    this.agreed = agreed;
  }
}
