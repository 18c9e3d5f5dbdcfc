/**
 * The 2025 sessions of one Streamable HTTP endpoint: who holds which
 * `Mcp-Session-Id`, the SSE streams each session writes to (resumable with
 * `Last-Event-ID`), and the bounds: how many at once, how long one may sit
 * idle. They live in this process's memory: a 2025 client must keep reaching
 * the same instance (sticky routing on `Mcp-Session-Id`).
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from "../../../protocol/jsonrpc/messages.js";
import { FlightTable } from "../../../protocol/flight-table.js";
import type { AuthInfo, ServerSession, SessionHost } from "../../types.js";
import type { HttpStream } from "./exchange.js";
import type { EventLog } from "./event-log.js";
import { SessionStreams } from "./session-streams.js";
import { listenOn, sendOn, type StreamSlots } from "./session-outbox.js";
import { acceptsSharedPeer, LAST_USE, PEER_OF, TRANSPORT_DATA, type KeptSession, type SessionKeeper } from "../../../protocol/session-keeper.js";
import { EXPIRED_MEMORY, type AnsweringRequest, type SessionLimits } from "./session-types.js";
import { Realms, type Realm } from "./session-realm.js";
import { ForeignSession } from "./foreign-session.js";

/**
 * What the endpoint keeps of a session once it is used beyond its handshake, in the session's own
 * transport slot (an idle session, most of a server's at scale, holds none of it). Its tables gain and
 * lose an entry per request for as long as the session lives: {@link FlightTable}s and a list, not Maps, whose
 * churn would promote each request's objects to the old generation.
 */
class Traffic implements StreamSlots {
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
 * Ticks of {@link TICK_MS} since this module started: small integers, kept inside the session object (a `Date.now()`
 * takes a 16-byte heap number per session) for 124 days of uptime, then larger numbers, as correct.
 */
const TICK_MS = 10;
const EPOCH = Date.now();
function clock(): number {
  const ticks = Math.floor((Date.now() - EPOCH) / TICK_MS);
  return ticks < 0x3fff_ffff ? ticks | 0 : ticks;
}

/** True when `session` was unused since `cutoff` (on the keeper's clock) and nothing of it is in flight. */
function idleSince(session: KeptSession, cutoff: number): boolean {
  const traffic = session[TRANSPORT_DATA] as Traffic | undefined;
  return session[LAST_USE] < cutoff && (traffic === undefined || (traffic.busy === 0 && traffic.standalone?.attached !== true));
}

/**
 * One of the endpoint's sessions as a request handles it: a view made for the request at hand, not
 * kept. What lasts is in the server's session (its last use, and this transport's {@link Traffic}
 * once used) and in its peer, the {@link Realm} its owner's sessions share: over HTTP an idle session
 * is that one object.
 * @internal
 */
export class HttpSession {
  readonly session: KeptSession;

  constructor(session: KeptSession) {
    this.session = session;
  }

  /** Who opened it. */
  get owner(): string | undefined {
    return this.realm.owner;
  }

  /** Marks it used now: the idle timeout counts from here. */
  touch(): void {
    this.session[LAST_USE] = clock();
  }

  /**
   * A request of this session, whose body was `bytes` long, is to be
   * answered: counted against the session's and its principal's bounds;
   * the option whose bound it would cross instead (nothing counted). A
   * session or principal with nothing in flight always gets one request
   * through, so a budget below one request's size never locks a client out.
   */
  begin(bytes: number): keyof SessionLimits | undefined {
    const work = this.work();
    const realm = this.realm;
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

  /** That request, `bytes` long, is answered. */
  end(bytes: number): void {
    const work = this.work();
    work.busy--;
    work.busyBytes -= bytes;
    this.realm.busy--;
    this.realm.busyBytes -= bytes;
    this.touch();
  }

  /** Who it belongs to, on which endpoint: its peer. */
  get realm(): Realm {
    return this.session[PEER_OF] as Realm;
  }

  private get traffic(): Traffic | undefined {
    return this.session[TRANSPORT_DATA] as Traffic | undefined;
  }

  private work(): Traffic {
    return this.traffic ?? (this.session[TRANSPORT_DATA] = new Traffic());
  }

  get id(): string {
    return this.session.id;
  }

  /** Most bytes one of this session's streams holds for a slow reader. */
  get maxStreamBufferBytes(): number {
    return this.realm.endpoint.limits.maxStreamBufferBytes;
  }

  /** A new stream's log (a POST answered over SSE, or a GET). */
  openStream(): EventLog {
    const limits = this.realm.endpoint.limits;
    return (this.work().streams ??= new SessionStreams(limits.maxReplayBytesPerSession, Math.floor(limits.maxStreamBufferBytes / 4))).open();
  }

  /** Ends a stream and forgets it at once (a cancelled request's: there is nothing left to resume). */
  dropStream(log: EventLog): void {
    const streams = this.traffic?.streams;
    if (streams === undefined) log.end();
    else streams.drop(log);
  }

  /** Registers a request being answered, so a cancellation or the session's end reaches its POST; returns the function that unregisters it. */
  answering(id: JsonRpcId, request: AnsweringRequest): () => void {
    const answering = (this.work().answering ??= new FlightTable());
    answering.set(id, request);
    return () => {
      if (answering.get(id) === request) answering.delete(id);
    };
  }

  /** The server's request `id` went out on `log` (a POST's stream): a later cancellation of it is written there too. */
  carried(id: JsonRpcId, log: EventLog): void {
    (this.work().carried ??= new FlightTable()).set(id, log);
  }

  /** Forgets the server requests a finished POST stream carried. */
  uncarry(ids: readonly JsonRpcId[]): void {
    const carried = this.traffic?.carried;
    for (const id of ids) carried?.delete(id);
  }

  /** The client cancelled request `id` (`notifications/cancelled`): its POST ends now, whatever its handler still does. */
  cancelled(id: unknown): void {
    if (typeof id !== "string" && typeof id !== "number") return;
    this.traffic?.answering?.get(id)?.cancelled();
  }

  /** The log a `Last-Event-ID` points into, and the sequence number to resume after. */
  findEvent(lastEventId: string): { log: EventLog; seq: number } | undefined {
    const match = /^(\d+)-(\d+)$/.exec(lastEventId.trim());
    if (!match) return undefined;
    const log = this.traffic?.streams?.find(Number(match[1]));
    return log === undefined ? undefined : { log, seq: Number(match[2]) };
  }

  /**
   * Connects a new GET stream; an older one still open is ended (the newest
   * GET wins). What never reached the client is delivered first.
   */
  listen(writer: HttpStream): void {
    listenOn(this.work(), writer, () => this.openStream());
  }

  /** `writer`, a GET stream's connection, closed. */
  unlisten(writer: HttpStream): void {
    this.traffic?.standalone?.detach(writer);
  }

  /** A message that belongs to no request: on the GET stream, or the POST stream of the request it withdraws a question of (see {@link sendOn}). */
  send(message: JsonRpcRequest | JsonRpcNotification): void {
    this.touch();
    sendOn(this.work(), message, (error) => this.realm.endpoint.limits.onError(new Error(`Session ${this.id}: ${error}`)));
  }

  /** Ends every stream and every POST still waiting for its answer: the session is over, so no connection of it stays open. */
  endStreams(reason: string): void {
    const work = this.traffic;
    work?.streams?.endAll();
    const answering = work?.answering?.values() ?? [];
    work?.answering?.clear();
    for (const request of answering) request.sessionEnded(reason);
  }
}

/** The sessions of one endpoint. @internal */
export class HttpSessions implements SessionKeeper {
  readonly #host: SessionHost;
  readonly #limits: SessionLimits;
  /** The server's sessions themselves, by id: the endpoint keeps no object of its own per session. */
  readonly #byId = new Map<string, KeptSession>();
  readonly #realms = new Realms(this);
  readonly #expired = new Set<string>();
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(host: SessionHost, limits: SessionLimits) {
    this.#host = host;
    this.#limits = limits;
  }

  get size(): number {
    return this.#byId.size;
  }

  get limits(): SessionLimits {
    return this.#limits;
  }

  /** The server's sessions this endpoint holds: the server broadcasts through here. */
  sessions(): Iterable<ServerSession> {
    return this.#byId.values();
  }

  /** Sends what `session` starts outside any request: its realm, the peer it shares, hands it here. */
  sendAs(session: ServerSession, message: JsonRpcRequest | JsonRpcNotification): void {
    new HttpSession(session as KeptSession).send(message);
  }

  /** Opens a session for an `initialize`; else the option whose bound the endpoint, or this principal's share, is at. */
  open(authInfo: AuthInfo | undefined): HttpSession | "maxSessions" | "maxSessionsPerPrincipal" {
    this.#sweep();
    if (this.#byId.size >= this.#limits.maxSessions) return "maxSessions";
    const owner = ownerOf(authInfo);
    if (this.#realms.count(owner) >= this.#limits.maxSessionsPerPrincipal) return "maxSessionsPerPrincipal";
    const realm = this.#realms.enter(owner);
    // This package's server opens every session on the realm, one peer for them all; another host gets a peer per session.
    const session = acceptsSharedPeer(this.#host) ? (this.#host.openSession(realm) as KeptSession) : new ForeignSession(this.#host, realm);
    const entry = new HttpSession(session);
    entry.touch();
    this.#byId.set(session.id, session);
    this.#startSweeping();
    return entry;
  }

  /**
   * The session behind an `Mcp-Session-Id`, for the same identity that
   * opened it; `"expired"` when it ended for idleness or was closed, and
   * `undefined` when no such session exists (or it belongs to someone else).
   */
  find(id: string, authInfo: AuthInfo | undefined): HttpSession | "expired" | undefined {
    const session = this.#byId.get(id);
    if (session === undefined || session.closed) {
      if (session !== undefined) this.#forget(session);
      return this.#expired.has(id) ? "expired" : undefined;
    }
    const entry = new HttpSession(session);
    if (entry.owner !== ownerOf(authInfo)) return undefined;
    entry.touch();
    return entry;
  }

  /** Ends a session (DELETE, a failed initialize, or expiry). */
  close(entry: HttpSession, reason: string, remember = true): void {
    entry.session.close(reason);
    entry.endStreams(reason);
    this.#forget(entry.session, remember);
  }

  /** Ends every session: the endpoint is shutting down. */
  closeAll(reason = "The server is shutting down."): void {
    for (const session of [...this.#byId.values()]) this.close(new HttpSession(session), reason);
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #forget(session: KeptSession, remember = true): void {
    if (this.#byId.get(session.id) !== session) return; // forgotten already
    this.#byId.delete(session.id);
    this.#realms.leave(session[PEER_OF] as Realm);
    if (remember) {
      this.#expired.add(session.id);
      if (this.#expired.size > EXPIRED_MEMORY) this.#expired.delete(this.#expired.values().next().value!);
    }
    if (this.#byId.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  }

  #startSweeping(): void {
    if (this.#sweeper !== undefined) return;
    const every = Math.max(1_000, Math.min(60_000, Math.floor(this.#limits.idleTimeoutMs / 2)));
    this.#sweeper = setInterval(() => this.#sweep(), every);
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  #sweep(): void {
    // One tick more than the timeout: a session is never ended early for the clock's coarseness.
    const cutoff = clock() - Math.ceil(this.#limits.idleTimeoutMs / TICK_MS) - 1;
    for (const session of [...this.#byId.values()]) {
      if (session.closed) this.#forget(session);
      else if (idleSince(session, cutoff)) {
        this.close(new HttpSession(session), `The session expired after ${Math.round(this.#limits.idleTimeoutMs / 1000)} s without activity.`);
      }
    }
  }
}

function ownerOf(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo === undefined ? undefined : `${authInfo.issuer ?? ""}\n${authInfo.clientId}\n${authInfo.subject ?? ""}`;
}
