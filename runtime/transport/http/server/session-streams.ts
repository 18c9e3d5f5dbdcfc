/**
 * The SSE streams one 2025 session keeps for `Last-Event-ID` resumption, and
 * the bytes they keep, counted together: at most {@link STREAMS_PER_SESSION}
 * finished streams, each log within its own bound, and all of them within
 * the session's `maxReplayBytesPerSession`. What no longer fits is forgotten
 * (finished streams first, oldest first; then the oldest events), and a
 * resume from before a forgotten event is refused rather than served with a
 * gap.
 *
 * @module
 * @internal
 */
import { EventLog, indexOfStream, type ReplayLedger } from "./event-log.js";
import { STREAMS_PER_SESSION } from "./session-types.js";

/** One session's kept streams, oldest first (by ascending number). @internal */
export class SessionStreams implements ReplayLedger {
  kept = 0;
  readonly limit: number;
  readonly #perStream: number;
  readonly #list: EventLog[] = [];
  #next = 0;

  /**
   * @param limit - characters all the session's logs may keep.
   * @param perStream - characters one log may keep.
   */
  constructor(limit: number, perStream: number) {
    this.limit = limit;
    this.#perStream = Math.min(perStream, limit);
  }

  /** A new stream's log (a POST answered over SSE, or a GET). */
  open(): EventLog {
    const log = new EventLog(this.#next++, this.#perStream, this);
    const streams = this.#list;
    streams.push(log);
    // The oldest finished streams go first; one still open stays (the session's bound on requests in flight bounds those).
    for (let i = 0; streams.length > STREAMS_PER_SESSION && i < streams.length; ) {
      if (!this.#forget(i)) i++;
    }
    return log;
  }

  /** Ends a stream and forgets it at once (a cancelled request's: there is nothing left to resume). */
  drop(log: EventLog): void {
    log.end();
    const at = indexOfStream(this.#list, log.stream);
    if (at !== -1) this.#list.splice(at, 1);
    log.release();
  }

  /** The kept stream numbered `stream`. */
  find(stream: number): EventLog | undefined {
    const at = indexOfStream(this.#list, stream);
    return at === -1 ? undefined : this.#list[at];
  }

  /** Ends every stream: the session is over. */
  endAll(): void {
    for (const log of this.#list) log.end();
  }

  reclaim(writing: EventLog): void {
    const streams = this.#list;
    for (let i = 0; this.kept > this.limit && i < streams.length; ) {
      if (streams[i] === writing || !this.#forget(i)) i++;
    }
    // Still over: the oldest events of the stream being written, then of the other open streams.
    while (this.kept > this.limit && writing.forgetOldest());
    for (let i = 0; this.kept > this.limit && i < streams.length; i++) {
      const log = streams[i]!;
      while (this.kept > this.limit && log.forgetOldest());
    }
  }

  /** Forgets the stream at `at` when it is finished and no connection reads it; true when it did. */
  #forget(at: number): boolean {
    const log = this.#list[at]!;
    if (!log.ended || log.attached) return false;
    if (at === 0) this.#list.shift();
    else this.#list.splice(at, 1);
    log.release();
    return true;
  }
}
