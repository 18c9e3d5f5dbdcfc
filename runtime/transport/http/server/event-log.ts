/**
 * The replay log of one SSE stream of a 2025 session: the events written
 * to it, with ids, kept so that a client that lost the connection can
 * resume with `Last-Event-ID`.
 */
import type { JsonRpcMessage } from "../../../protocol/jsonrpc/messages.js";
import type { HttpStream } from "./exchange.js";
import { ssePrimingEvent, sseEvent } from "../sse.js";

/** Events kept per stream for `Last-Event-ID` resumption; older ones are forgotten. */
const EVENTS_PER_STREAM = 256;

/**
 * What a session's logs keep, counted together: a log reports each event it
 * keeps or forgets, and asks the ledger to make room once the session keeps
 * more than its bound (`session-streams.ts`).
 * @internal
 */
export interface ReplayLedger {
  /** Characters kept by all the session's logs. */
  kept: number;
  readonly limit: number;
  /** The session keeps more than `limit`: forget what may be forgotten, `writing` (the log just appended to) last. */
  reclaim(writing: EventLog): void;
}

/**
 * One SSE stream of a session, as a log: every event gets the id
 * `<stream>-<seq>`, is written to the connection attached (one at a time:
 * a newer one takes over and the older is ended), and stays for replay
 * after the connection drops, within a count and a byte bound.
 * @internal
 */
export class EventLog {
  readonly stream: number;
  /** The events kept, as written: only the text (the message is read back from it when needed), so an event is held once. */
  #events: Array<{ seq: number; text: string }> = [];
  /** Characters of text in #events. */
  #chars = 0;
  readonly #maxChars: number;
  readonly #ledger: ReplayLedger;
  #nextSeq = 0;
  /** The newest event forgotten (or never kept: larger than the log's bound). */
  #forgotten = -1;
  /** The last event handed to a connection; what comes after it may never have reached the client. */
  #delivered = -1;
  #writer: HttpStream | undefined;
  #ended = false;

  constructor(stream: number, maxChars: number, ledger: ReplayLedger) {
    this.stream = stream;
    this.#maxChars = maxChars;
    this.#ledger = ledger;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get attached(): boolean {
    return this.#writer !== undefined;
  }

  /** Attaches a connection (ending the one it takes over from) and writes the priming event (an id, empty data) so the client can resume from it. */
  attach(writer: HttpStream): void {
    this.#release();
    this.#writer = writer;
    this.#write(ssePrimingEvent(`${this.stream}-${this.#nextSeq++}`), false);
  }

  /** `writer`'s connection dropped; events keep being logged for a resume. A connection taken over already is no longer the log's. */
  detach(writer: HttpStream): void {
    if (this.#writer === writer) this.#writer = undefined;
  }

  /** Logs and writes one message; a promise while the connection's reader is behind (see {@link HttpStream.drained}). */
  append(message: JsonRpcMessage): Promise<void> | undefined {
    if (this.#ended) return undefined;
    const seq = this.#nextSeq++;
    const text = sseEvent(message, `${this.stream}-${seq}`);
    if (text.length > this.#maxChars) {
      this.#forgotten = seq; // larger than the log may keep: written, never kept
    } else {
      this.#events.push({ seq, text });
      this.#chars += text.length;
      this.#ledger.kept += text.length;
      while (this.#events.length > EVENTS_PER_STREAM || this.#chars > this.#maxChars) this.forgetOldest();
      if (this.#ledger.kept > this.#ledger.limit) this.#ledger.reclaim(this);
    }
    if (!this.#write(text, false)) return undefined;
    this.#delivered = seq;
    return this.#writer?.drained();
  }

  /** Characters this log keeps. */
  get kept(): number {
    return this.#chars;
  }

  /** Forgets the oldest event kept; false when none is. */
  forgetOldest(): boolean {
    const event = this.#events.shift();
    if (event === undefined) return false;
    this.#chars -= event.text.length;
    this.#ledger.kept -= event.text.length;
    this.#forgotten = event.seq;
    return true;
  }

  /** The session no longer keeps this log: its events leave the ledger. */
  release(): void {
    while (this.forgetOldest());
  }

  /**
   * Whether a resume from `seq` can carry the stream to its end: false once
   * the stream ended with an event no longer kept (a call's answer too large
   * to keep, or forgotten to stay within the session's bound) that the
   * client had not got. Events forgotten before it (progress, say) are a gap
   * a resume skips.
   */
  resumableFrom(seq: number): boolean {
    const last = this.#nextSeq - 1;
    return !this.#ended || this.#forgotten < last || seq >= last;
  }

  /** The messages logged after the last one a connection took: what a new stream must carry on. */
  undelivered(): JsonRpcMessage[] {
    return this.#events.filter((event) => event.seq > this.#delivered).map((event) => messageOf(event.text));
  }

  /** No more events: ends the connection, if one is attached. */
  end(): void {
    this.#ended = true;
    this.#write("", true);
  }

  /**
   * Takes the stream over for `writer` (a GET with `Last-Event-ID`): ends
   * the connection it was on (a POST's answer, or an older GET), writes
   * what came after `seq`, and ends it at once if the stream is done.
   */
  resume(seq: number, writer: HttpStream): void {
    this.#release();
    this.#writer = writer;
    for (const event of this.#events) if (event.seq > seq && this.#write(event.text, false)) this.#delivered = event.seq;
    if (this.#ended) this.#write("", true);
  }

  /** Ends the attached connection, if any: a newer one takes its place. */
  #release(): void {
    const previous = this.#writer;
    this.#writer = undefined;
    try {
      previous?.end();
    } catch {
      // already gone
    }
  }

  /** Writes to the attached connection; true when one took the text. */
  #write(text: string, end: boolean): boolean {
    const writer = this.#writer;
    if (writer === undefined) return false;
    try {
      if (text !== "" && !writer.write(text)) {
        this.#writer = undefined; // gone, or cut for reading too slowly: the log keeps the events for a resume
        return false;
      }
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

/** The message an event's text carries on its one `data:` line (see `sseEvent`). */
function messageOf(text: string): JsonRpcMessage {
  const data = text.indexOf("\ndata: ") + 7;
  return JSON.parse(text.slice(data, text.length - 2)) as JsonRpcMessage;
}

/** Where stream `stream` sits in `streams` (ascending by number), or -1. @internal */
export function indexOfStream(streams: readonly EventLog[], stream: number): number {
  let low = 0;
  let high = streams.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = streams[middle]!.stream;
    if (found === stream) return middle;
    if (found < stream) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
