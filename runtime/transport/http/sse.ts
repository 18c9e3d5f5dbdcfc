/**
 * Server-Sent Events framing for Streamable HTTP: the server writes one
 * JSON-RPC message per `message` event; the client parses the stream back
 * into messages, ignoring comments and keep-alives.
 */

/**
 * One SSE event carrying a JSON-RPC message.
 * @param id - the event id a resumable stream gives it (`Last-Event-ID` names it back); none by default.
 */
export function sseEvent(message: unknown, id?: string): string {
  // JSON.stringify never emits raw newlines, so one `data:` line suffices.
  // One template per case: the event is built once, not wrapped in a second string.
  return id === undefined ? `event: message\ndata: ${JSON.stringify(message)}\n\n` : `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** The priming event of a resumable stream: an id and empty data, so the client can resume from it before any message. */
export function ssePrimingEvent(id: string): string {
  return `id: ${id}\ndata: \n\n`;
}

/** An SSE event longer than the reader accepts: the stream is abandoned rather than buffered without end. */
class SseEventTooLarge extends Error {
  override readonly name: string = "SseEventTooLarge";
  /** The bound, in characters. */
  readonly limit: number;

  constructor(limit: number) {
    super(`An SSE event from the server exceeded ${limit} characters and was not read; raise maxResponseBytes if the server's messages really are this large.`);
    this.limit = limit;
  }
}

/** A dispatched SSE event: its type and the joined `data` lines. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Incremental SSE parser (the WHATWG event-stream algorithm). Feed it
 * decoded text; it calls `onEvent` for each complete event. It also keeps the
 * stream's last event ID and `retry` delay, which 2025-era streams use to
 * resume after a disconnection (2026-07-28 streams send neither).
 */
export class SseParser {
  #buffer = "";
  #data: string[] = [];
  #event = "";
  #lastEventId: string | undefined;
  #retry: number | undefined;
  readonly #onEvent: (event: SseMessage) => void;
  readonly #maxEventChars: number;
  /** Characters of the event being assembled (its data lines and the partial line). */
  #eventChars = 0;

  /**
   * @param onEvent - called with each complete event
   * @param maxEventChars - the longest event accepted, in characters; a longer one makes `push` throw {@link SseEventTooLarge}
   */
  constructor(onEvent: (event: SseMessage) => void, maxEventChars = Number.POSITIVE_INFINITY) {
    this.#onEvent = onEvent;
    this.#maxEventChars = maxEventChars;
  }

  /**
   * Adds a chunk of text; complete lines are processed at once.
   * @throws {SseEventTooLarge} when one event grows past the parser's bound
   */
  push(chunk: string): void {
    this.#buffer += chunk;
    let start = 0;
    for (;;) {
      const lf = this.#buffer.indexOf("\n", start);
      const cr = this.#buffer.indexOf("\r", start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A lone CR at the very end may be the first half of CRLF: wait for more.
        if (cr === this.#buffer.length - 1) break;
        end = cr;
        next = this.#buffer[cr + 1] === "\n" ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        break;
      }
      this.#line(this.#buffer.slice(start, end));
      start = next;
    }
    this.#buffer = this.#buffer.slice(start);
    // What the current event holds so far, its unfinished line included: past the bound, stop reading.
    if (this.#eventChars + this.#buffer.length > this.#maxEventChars) throw new SseEventTooLarge(this.#maxEventChars);
  }

  /** The last `id` field seen, sent back as `Last-Event-ID` to resume; `undefined` when the stream has none. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The last valid `retry` field: how many milliseconds to wait before reconnecting. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** Flushes a final event that was not followed by a blank line. */
  end(): void {
    if (this.#buffer.length > 0) this.#line(this.#buffer);
    this.#buffer = "";
    this.#line("");
  }

  #line(line: string): void {
    this.#eventChars += line.length;
    if (line === "") {
      this.#eventChars = 0;
      if (this.#data.length > 0) {
        this.#onEvent({ event: this.#event || "message", data: this.#data.join("\n") });
      }
      this.#data = [];
      this.#event = "";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
    // WHATWG event-stream interpretation: an id with NULL is ignored; retry only when all ASCII digits.
    else if (field === "id") {
      if (!value.includes("\0")) this.#lastEventId = value;
    } else if (field === "retry" && /^\d+$/.test(value)) this.#retry = Number(value);
  }
}
