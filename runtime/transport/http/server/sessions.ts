/**
 * The 2025 sessions of one Streamable HTTP endpoint: who holds which
 * `Mcp-Session-Id`, the SSE streams each session writes to (with event ids,
 * so a client that lost a stream can resume it with `Last-Event-ID`), and
 * the bounds: how many sessions at once, how long one may sit idle.
 *
 * Sessions live in this process's memory: a 2025 client must keep reaching
 * the same instance (sticky routing on `Mcp-Session-Id`); 2026-07-28
 * clients need no such thing.
 */
import type { JsonRpcMessage } from "../../../protocol/jsonrpc/messages.js";
import type { AuthInfo, ServerSession, SessionHost } from "../../types.js";
import type { HttpStream } from "./exchange.js";
import { ssePrimingEvent, sseEvent } from "../sse.js";

/** Events kept per stream for `Last-Event-ID` resumption; older ones are forgotten. */
const EVENTS_PER_STREAM = 256;
/** Finished streams kept per session for resumption, newest last. */
const STREAMS_PER_SESSION = 32;
/** Unrelated messages kept for a session that has no GET stream open yet. */
const OUTBOX_LIMIT = 1_000;
/** Expired session ids remembered so a late client hears "expired", not "unknown". */
const EXPIRED_MEMORY = 4_096;

/** The bounds of an endpoint's sessions. @internal */
export interface SessionLimits {
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  readonly onError: (error: unknown) => void;
}

/**
 * One SSE stream of a session, as a log: every event gets the id
 * `<stream>-<seq>`, is written to the connection while one is attached, and
 * stays for replay after it drops.
 * @internal
 */
export class EventLog {
  readonly stream: number;
  #events: Array<{ seq: number; text: string; message: JsonRpcMessage }> = [];
  #nextSeq = 0;
  /** The last event handed to a connection; what comes after it may never have reached the client. */
  #delivered = -1;
  #writer: HttpStream | undefined;
  #ended = false;

  constructor(stream: number) {
    this.stream = stream;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get attached(): boolean {
    return this.#writer !== undefined;
  }

  /** Attaches a connection and writes the priming event (an id, empty data) so the client can resume from it. */
  attach(writer: HttpStream): void {
    this.#writer = writer;
    this.#write(ssePrimingEvent(`${this.stream}-${this.#nextSeq++}`), false);
  }

  /** The connection dropped; events keep being logged for a resume. */
  detach(): void {
    this.#writer = undefined;
  }

  append(message: JsonRpcMessage): void {
    if (this.#ended) return;
    const seq = this.#nextSeq++;
    const text = sseEvent(message, `${this.stream}-${seq}`);
    this.#events.push({ seq, text, message });
    if (this.#events.length > EVENTS_PER_STREAM) this.#events.shift();
    if (this.#write(text, false)) this.#delivered = seq;
  }

  /** The messages logged after the last one a connection took: what a new stream must carry on. */
  undelivered(): JsonRpcMessage[] {
    return this.#events.filter((event) => event.seq > this.#delivered).map((event) => event.message);
  }

  /** No more events: ends the connection, if one is attached. */
  end(): void {
    this.#ended = true;
    this.#write("", true);
  }

  /** Attaches `writer` after a drop, writes what came after `seq`, and ends it at once if the stream is done. */
  resume(seq: number, writer: HttpStream): void {
    this.#writer = writer;
    for (const event of this.#events) if (event.seq > seq && this.#write(event.text, false)) this.#delivered = event.seq;
    if (this.#ended) this.#write("", true);
  }

  /** Writes to the attached connection; true when one took the text. */
  #write(text: string, end: boolean): boolean {
    const writer = this.#writer;
    if (writer === undefined) return false;
    try {
      if (text !== "") writer.write(text);
      if (end) {
        writer.end();
        this.#writer = undefined;
      }
      return true;
    } catch {
      this.#writer = undefined; // the connection is gone; the log keeps the events
      return false;
    }
  }
}

/** A session as the endpoint holds it. @internal */
export class HttpSession {
  readonly session: ServerSession;
  /** Who opened it: a later request by another identity is treated as not knowing the id. */
  readonly owner: string | undefined;
  lastActive = Date.now();
  /** Requests of this session being answered: an idle sweep never ends a session mid-request. */
  busy = 0;
  #streams = new Map<number, EventLog>();
  #nextStream = 0;
  #standalone: EventLog | undefined;
  #outbox: JsonRpcMessage[] = [];
  readonly #onError: (error: unknown) => void;

  constructor(session: ServerSession, owner: string | undefined, onError: (error: unknown) => void) {
    this.session = session;
    this.owner = owner;
    this.#onError = onError;
  }

  get id(): string {
    return this.session.id;
  }

  /** A new stream's log (a POST answered over SSE, or a GET). */
  openStream(): EventLog {
    const log = new EventLog(this.#nextStream++);
    this.#streams.set(log.stream, log);
    if (this.#streams.size > STREAMS_PER_SESSION) {
      for (const [id, old] of this.#streams) {
        if (this.#streams.size <= STREAMS_PER_SESSION) break;
        if (old.ended && !old.attached) this.#streams.delete(id);
      }
    }
    return log;
  }

  /** The log a `Last-Event-ID` points into, and the sequence number to resume after. */
  findEvent(lastEventId: string): { log: EventLog; seq: number } | undefined {
    const match = /^(\d+)-(\d+)$/.exec(lastEventId.trim());
    if (!match) return undefined;
    const log = this.#streams.get(Number(match[1]));
    return log === undefined ? undefined : { log, seq: Number(match[2]) };
  }

  /** True while a GET stream is connected. */
  get listening(): boolean {
    return this.#standalone?.attached === true;
  }

  /**
   * Connects a new GET stream. What never reached the client (kept while no
   * stream was open, or logged after the last one dropped) is delivered first.
   */
  listen(writer: HttpStream): void {
    const previous = this.#standalone;
    const waiting = [...(previous?.undelivered() ?? []), ...this.#outbox];
    previous?.end();
    this.#outbox = [];
    const log = (this.#standalone = this.openStream());
    log.attach(writer);
    for (const message of waiting) log.append(message);
  }

  /** The GET stream's connection closed. */
  unlisten(): void {
    this.#standalone?.detach();
  }

  /**
   * Sends a message that belongs to no request: on the GET stream; into its
   * log while it is dropped (a resume replays it); kept until one opens.
   */
  sendUnrelated(message: JsonRpcMessage): void {
    this.lastActive = Date.now();
    if (this.#standalone !== undefined && !this.#standalone.ended) {
      this.#standalone.append(message);
      return;
    }
    this.#outbox.push(message);
    if (this.#outbox.length > OUTBOX_LIMIT) {
      this.#outbox.shift();
      this.#onError(new Error(`Session ${this.id}: more than ${OUTBOX_LIMIT} messages waited for a GET stream; the oldest was dropped`));
    }
  }

  /** Ends every stream (the session is over). */
  endStreams(): void {
    for (const log of this.#streams.values()) log.end();
  }
}

/** The sessions of one endpoint. @internal */
export class HttpSessions {
  readonly #host: SessionHost;
  readonly #limits: SessionLimits;
  readonly #byId = new Map<string, HttpSession>();
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

  /** Opens a session for an `initialize`; `undefined` when the endpoint already holds as many as it may. */
  open(authInfo: AuthInfo | undefined): HttpSession | undefined {
    this.#sweep();
    if (this.#byId.size >= this.#limits.maxSessions) return undefined;
    let entry!: HttpSession;
    const session = this.#host.openSession({ send: (message) => entry.sendUnrelated(message) });
    entry = new HttpSession(session, ownerOf(authInfo), this.#limits.onError);
    this.#byId.set(session.id, entry);
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
    entry.lastActive = Date.now();
    return entry;
  }

  /** Ends a session (DELETE, a failed initialize, or expiry). */
  close(entry: HttpSession, reason: string, remember = true): void {
    entry.session.close(reason);
    entry.endStreams();
    this.#forget(entry, remember);
  }

  /** Ends every session: the endpoint is shutting down. */
  closeAll(reason = "The server is shutting down."): void {
    for (const entry of [...this.#byId.values()]) this.close(entry, reason);
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #forget(entry: HttpSession, remember = true): void {
    this.#byId.delete(entry.id);
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
    const cutoff = Date.now() - this.#limits.idleTimeoutMs;
    for (const entry of [...this.#byId.values()]) {
      if (entry.session.closed) this.#forget(entry);
      else if (entry.busy === 0 && !entry.listening && entry.lastActive < cutoff) {
        this.close(entry, `The session expired after ${Math.round(this.#limits.idleTimeoutMs / 1000)} s without activity.`);
      }
    }
  }
}

function ownerOf(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo === undefined ? undefined : `${authInfo.issuer ?? ""}\n${authInfo.clientId}\n${authInfo.subject ?? ""}`;
}
