/**
 * The 2025 sessions of one Streamable HTTP endpoint: who holds which
 * `Mcp-Session-Id`, the SSE streams each session writes to (resumable with
 * `Last-Event-ID`), and the bounds: how many at once, how long one may sit
 * idle. They live in this process's memory: a 2025 client must keep reaching
 * the same instance (sticky routing on `Mcp-Session-Id`).
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from "../../../protocol/jsonrpc/messages.js";
import { keyOf } from "../../../protocol/message.js";
import { isObject } from "../../../protocol/guards.js";
import type { AuthInfo, ServerSession, SessionHost } from "../../types.js";
import type { HttpStream } from "./exchange.js";
import { EventLog } from "./event-log.js";
import { KEPT_BY, type SessionKeeper } from "../../../protocol/session-keeper.js";
import { EXPIRED_MEMORY, OUTBOX_LIMIT, STREAMS_PER_SESSION, type AnsweringRequest, type SessionLimits } from "./session-types.js";
import { Realm, Realms } from "./session-realm.js";

/** What a session holds once it is used beyond its handshake (an idle one, most of a server's at scale, holds none of it). */
class Traffic {
  /** Who the session belongs to (the session's one slot held it until this was made). */
  readonly realm: Realm;
  /** Requests of this session being answered: an idle sweep never ends a session mid-request. */
  busy = 0;
  streams: Map<number, EventLog> | undefined = undefined;
  nextStream = 0;
  standalone: EventLog | undefined = undefined;
  outbox: JsonRpcMessage[] | undefined = undefined;
  /** Requests being answered, by id: how `notifications/cancelled` and the session's end reach their POSTs. */
  answering: Map<string, AnsweringRequest> | undefined = undefined;
  /** The server's own requests written on a POST's stream still open, by id: their cancellation goes there too. */
  carried: Map<string, EventLog> | undefined = undefined;

  constructor(realm: Realm) {
    this.realm = realm;
  }
}

/**
 * Ticks of {@link TICK_MS} since this module started: small integers, kept inside the object (a `Date.now()`
 * takes a 16-byte heap number per session) for 124 days of uptime, then larger numbers, as correct.
 */
const TICK_MS = 10;
const EPOCH = Date.now();
function clock(): number {
  const ticks = Math.floor((Date.now() - EPOCH) / TICK_MS);
  return ticks < 0x3fff_ffff ? ticks | 0 : ticks;
}

/** A session as the endpoint holds it. @internal */
export class HttpSession {
  readonly session: ServerSession;
  /** When it was last used, on {@link clock}. */
  #lastActive = clock();
  /** Idle, who it belongs to (a record shared by that identity's sessions); once used, its traffic, which holds that record. */
  #state: Realm | Traffic;

  /** Opens the server's session with this object as its peer (no closure per session to reach it). */
  constructor(host: SessionHost, realm: Realm) {
    this.#state = realm;
    this.session = host.openSession(this);
  }

  /** Who opened it. */
  get owner(): string | undefined {
    return this.realm.owner;
  }

  /** As a peer, it names the collection holding its session: the server holds no entry of its own for it. */
  get [KEPT_BY](): SessionKeeper {
    return this.realm.endpoint;
  }

  /** Marks it used now: the idle timeout counts from here. */
  touch(): void {
    this.#lastActive = clock();
  }

  /** True when unused since `cutoff` (on {@link clock}) and nothing of it is in flight. */
  idleSince(cutoff: number): boolean {
    const traffic = this.traffic;
    return this.#lastActive < cutoff && (traffic === undefined || (traffic.busy === 0 && !this.listening));
  }

  /** A request of this session is being answered. */
  begin(): void {
    this.work().busy++;
  }

  /** That request is answered. */
  end(): void {
    this.work().busy--;
    this.touch();
  }

  /** Who it belongs to, on which endpoint. */
  get realm(): Realm {
    const state = this.#state;
    return state instanceof Realm ? state : state.realm;
  }

  private get traffic(): Traffic | undefined {
    const state = this.#state;
    return state instanceof Realm ? undefined : state;
  }

  private work(): Traffic {
    const state = this.#state;
    return state instanceof Realm ? (this.#state = new Traffic(state)) : state;
  }

  /** The session's peer: what the server sends outside any request. */
  send(message: JsonRpcRequest | JsonRpcNotification): void {
    this.sendUnrelated(message);
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
    const work = this.work();
    const log = new EventLog(work.nextStream++, Math.floor(this.maxStreamBufferBytes / 4));
    const streams = (work.streams ??= new Map());
    streams.set(log.stream, log);
    if (streams.size > STREAMS_PER_SESSION) {
      for (const [id, old] of streams) {
        if (streams.size <= STREAMS_PER_SESSION) break;
        if (old.ended && !old.attached) streams.delete(id);
      }
    }
    return log;
  }

  /** Ends a stream and forgets it at once (a cancelled request's: there is nothing left to resume). */
  dropStream(log: EventLog): void {
    log.end();
    this.traffic?.streams?.delete(log.stream);
  }

  /** Registers a request being answered, so a cancellation or the session's end reaches its POST; returns the function that unregisters it. */
  answering(id: JsonRpcId, request: AnsweringRequest): () => void {
    const key = keyOf(id);
    const answering = (this.work().answering ??= new Map());
    answering.set(key, request);
    return () => {
      if (answering.get(key) === request) answering.delete(key);
    };
  }

  /** The server's request `id` went out on `log` (a POST's stream): a later cancellation of it is written there too. */
  carried(id: JsonRpcId, log: EventLog): void {
    (this.work().carried ??= new Map()).set(keyOf(id), log);
  }

  /** Forgets the server requests a finished POST stream carried. */
  uncarry(ids: readonly JsonRpcId[]): void {
    const carried = this.traffic?.carried;
    for (const id of ids) carried?.delete(keyOf(id));
  }

  /** The client cancelled request `id` (`notifications/cancelled`): its POST ends now, whatever its handler still does. */
  cancelled(id: unknown): void {
    if (typeof id !== "string" && typeof id !== "number") return;
    this.traffic?.answering?.get(keyOf(id))?.cancelled();
  }

  /** The log a `Last-Event-ID` points into, and the sequence number to resume after. */
  findEvent(lastEventId: string): { log: EventLog; seq: number } | undefined {
    const match = /^(\d+)-(\d+)$/.exec(lastEventId.trim());
    if (!match) return undefined;
    const log = this.traffic?.streams?.get(Number(match[1]));
    return log === undefined ? undefined : { log, seq: Number(match[2]) };
  }

  /** True while a GET stream is connected. */
  get listening(): boolean {
    return this.traffic?.standalone?.attached === true;
  }

  /**
   * Connects a new GET stream; an older one still open is ended (the newest
   * GET wins). What never reached the client (kept while no stream was
   * open, or logged after the last one dropped) is delivered first.
   */
  listen(writer: HttpStream): void {
    const work = this.work();
    const previous = work.standalone;
    const waiting = [...(previous?.undelivered() ?? []), ...(work.outbox ?? [])];
    previous?.end();
    work.outbox = undefined;
    const log = (work.standalone = this.openStream());
    log.attach(writer);
    for (const message of waiting) log.append(message);
  }

  /** `writer`, a GET stream's connection, closed. */
  unlisten(writer: HttpStream): void {
    this.traffic?.standalone?.detach(writer);
  }

  /** A message that belongs to no request: on the GET stream; into its log while it is dropped (a resume replays it); kept until one opens. */
  private sendUnrelated(message: JsonRpcMessage): void {
    this.touch();
    // The server withdrawing a question it asked on a POST's stream (that call was cancelled): on that stream, its last event.
    const carrier = "method" in message && message.method === "notifications/cancelled" ? this.carrierOf(message.params) : undefined;
    if (carrier !== undefined) {
      carrier.append(message);
      return;
    }
    const work = this.work();
    if (work.standalone !== undefined && !work.standalone.ended) {
      work.standalone.append(message);
      return;
    }
    const outbox = (work.outbox ??= []);
    outbox.push(message);
    if (outbox.length > OUTBOX_LIMIT) {
      outbox.shift();
      this.realm.endpoint.limits.onError(new Error(`Session ${this.id}: more than ${OUTBOX_LIMIT} messages waited for a GET stream; the oldest was dropped`));
    }
  }

  private carrierOf(params: unknown): EventLog | undefined {
    const id = isObject(params) ? params.requestId : undefined;
    const log = typeof id === "string" || typeof id === "number" ? this.traffic?.carried?.get(keyOf(id)) : undefined;
    return log?.ended === false ? log : undefined;
  }

  /** Ends every stream and every POST still waiting for its answer: the session is over, so no connection of it stays open. */
  endStreams(reason: string): void {
    const work = this.traffic;
    for (const log of work?.streams?.values() ?? []) log.end();
    const answering = [...(work?.answering?.values() ?? [])];
    work?.answering?.clear();
    for (const request of answering) request.sessionEnded(reason);
  }
}

/** The sessions of one endpoint. @internal */
export class HttpSessions implements SessionKeeper {
  readonly #host: SessionHost;
  readonly #limits: SessionLimits;
  readonly #byId = new Map<string, HttpSession>();
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
  *sessions(): Iterable<ServerSession> {
    for (const entry of this.#byId.values()) yield entry.session;
  }

  /** Opens a session for an `initialize`; `undefined` when the endpoint already holds as many as it may. */
  open(authInfo: AuthInfo | undefined): HttpSession | undefined {
    this.#sweep();
    if (this.#byId.size >= this.#limits.maxSessions) return undefined;
    const entry = new HttpSession(this.#host, this.#realms.enter(ownerOf(authInfo)));
    this.#byId.set(entry.id, entry);
    this.#startSweeping();
    return entry;
  }

  /**
   * The session behind an `Mcp-Session-Id`, for the same identity that
   * opened it; `"expired"` when it ended for idleness or was closed, and
   * `undefined` when no such session exists (or it belongs to someone else).
   */
  find(id: string, authInfo: AuthInfo | undefined): HttpSession | "expired" | undefined {
    const entry = this.#byId.get(id);
    if (entry === undefined || entry.session.closed) {
      if (entry !== undefined) this.#forget(entry);
      return this.#expired.has(id) ? "expired" : undefined;
    }
    if (entry.owner !== ownerOf(authInfo)) return undefined;
    entry.touch();
    return entry;
  }

  /** Ends a session (DELETE, a failed initialize, or expiry). */
  close(entry: HttpSession, reason: string, remember = true): void {
    entry.session.close(reason);
    entry.endStreams(reason);
    this.#forget(entry, remember);
  }

  /** Ends every session: the endpoint is shutting down. */
  closeAll(reason = "The server is shutting down."): void {
    for (const entry of [...this.#byId.values()]) this.close(entry, reason);
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #forget(entry: HttpSession, remember = true): void {
    if (this.#byId.get(entry.id) !== entry) return; // forgotten already
    this.#byId.delete(entry.id);
    this.#realms.leave(entry.realm);
    if (remember) {
      this.#expired.add(entry.id);
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
    for (const entry of [...this.#byId.values()]) {
      if (entry.session.closed) this.#forget(entry);
      else if (entry.idleSince(cutoff)) {
        this.close(entry, `The session expired after ${Math.round(this.#limits.idleTimeoutMs / 1000)} s without activity.`);
      }
    }
  }
}

function ownerOf(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo === undefined ? undefined : `${authInfo.issuer ?? ""}\n${authInfo.clientId}\n${authInfo.subject ?? ""}`;
}
