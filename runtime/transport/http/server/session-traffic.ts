/**
 * What an endpoint keeps of one 2025 session once it is used beyond its
 * handshake, and how its requests in flight are counted against the
 * session's and its principal's bounds (`maxRequestsPerSession`,
 * `maxPendingBytesPerSession` and their per-principal twins).
 *
 * @module
 * @internal
 */
import type { JsonRpcMessage } from "../../../protocol/jsonrpc/messages.js";
import type { FlightTable } from "../../../protocol/flight-table.js";
import type { EventLog } from "./event-log.js";
import type { Realm } from "./session-realm.js";
import type { SessionStreams } from "./session-streams.js";
import type { AnsweringRequest, SessionLimits } from "./session-types.js";

/** The name of a session bound, as an error names the option that sets it. @internal */
export type SessionLimitName = keyof SessionLimits;

/**
 * What the endpoint keeps of a session once it is used beyond its handshake, in the session's own
 * transport slot (an idle session, most of a server's at scale, holds none of it). Its tables gain and
 * lose an entry per request for as long as the session lives: {@link FlightTable}s and a list, not Maps, whose
 * churn would promote each request's objects to the old generation.
 * @internal
 */
export class Traffic {
  /** Requests of this session being answered: an idle sweep never ends a session mid-request. */
  busy = 0;
  /** Bytes of the request bodies of those requests. */
  busyBytes = 0;
  /** The streams kept for resumption, and the bytes they keep. */
  streams: SessionStreams | undefined = undefined;
  standalone: EventLog | undefined = undefined;
  outbox: JsonRpcMessage[] | undefined = undefined;
  /** Requests being answered, by id: how `notifications/cancelled` and the session's end reach their POSTs. */
  answering: FlightTable<AnsweringRequest> | undefined = undefined;
  /** The server's own requests written on a POST's stream still open, by id: their cancellation goes there too. */
  carried: FlightTable<EventLog> | undefined = undefined;
}

/**
 * Counts a request whose body was `bytes` long as in flight, or returns the
 * option whose bound it would cross (nothing counted). A session or
 * principal with nothing in flight always gets one request through, so a
 * budget below one request's size never locks a client out.
 * @internal
 */
export function admit(work: Traffic, realm: Realm, bytes: number): SessionLimitName | undefined {
  const limits = realm.endpoint.limits;
  if (work.busy >= limits.maxRequestsPerSession) return "maxRequestsPerSession";
  if (realm.busy >= limits.maxRequestsPerPrincipal) return "maxRequestsPerPrincipal";
  if (work.busy > 0 && work.busyBytes + (work.streams?.kept ?? 0) + bytes > limits.maxPendingBytesPerSession) return "maxPendingBytesPerSession";
  if (realm.busy > 0 && realm.busyBytes + bytes > limits.maxPendingBytesPerPrincipal) return "maxPendingBytesPerPrincipal";
  work.busy++;
  work.busyBytes += bytes;
  realm.busy++;
  realm.busyBytes += bytes;
  return undefined;
}

/** A request counted by {@link admit} is answered. @internal */
export function release(work: Traffic, realm: Realm, bytes: number): void {
  work.busy--;
  work.busyBytes -= bytes;
  realm.busy--;
  realm.busyBytes -= bytes;
}
