// A 2025 client on the wire, kept minimal so tests see exactly what the server writes: the session
// headers on every POST, the GET and DELETE of a session, and an SSE reader that keeps event ids.

export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "wire", version: "1" } },
};

/** A 2025 client on the wire: every POST carries the session id and the agreed version once it has them. */
export function wireClient(url: string, extra: Record<string, string> = {}) {
  let session: string | undefined;
  const headers = (more: Record<string, string> = {}) => ({
    ...POST_HEADERS,
    ...extra,
    ...(session === undefined ? {} : { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }),
    ...more,
  });
  return {
    get session() {
      return session;
    },
    /** initialize, then (when it opened a session) notifications/initialized, as a client completes the handshake. */
    async initialize(body: object = INITIALIZE) {
      const response = await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify(body) });
      session = response.headers.get("mcp-session-id") ?? undefined;
      if (session !== undefined) {
        await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
      }
      return response;
    },
    post(body: object, more?: Record<string, string>) {
      return fetch(url, { method: "POST", headers: headers(more), body: JSON.stringify(body) });
    },
    get(more: Record<string, string> = {}, signal?: AbortSignal) {
      return fetch(url, { method: "GET", headers: { accept: "text/event-stream", ...(session ? { "mcp-session-id": session } : {}), ...more }, signal });
    },
    delete() {
      return fetch(url, { method: "DELETE", headers: session ? { "mcp-session-id": session } : {} });
    },
  };
}

/** One SSE event as the test reads it: its id (if any) and data. */
export interface SseEvent {
  id: string | undefined;
  data: string;
}

/**
 * Reads SSE events from a response until `until` says stop (or the stream
 * ends). A reader of its own, kept minimal, because the point is to see the
 * event ids the server writes.
 */
export async function readEvents(response: Response, until: (events: SseEvent[]) => boolean, onEvent?: (event: SseEvent) => Promise<void>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const pending: Promise<void>[] = [];
  let buffer = "";
  while (!until(events)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { id: undefined, data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) event.id = line.slice(3).trim();
        else if (line.startsWith("data:")) event.data += line.slice(5).trim();
      }
      events.push(event);
      if (onEvent) pending.push(onEvent(event));
    }
  }
  await Promise.all(pending);
  await reader.cancel().catch(() => {});
  return events;
}

export const messagesOf = (events: SseEvent[]) =>
  events.filter((event) => event.data.trim() !== "").map((event) => JSON.parse(event.data) as Record<string, unknown>);

/** Reads a response's SSE events in the background: a test waits for some, and sees whether the server ended the stream. */
export class EventReader {
  readonly events: SseEvent[] = [];
  /** Resolves once the stream ended (`"ended"`: the server finished it, `"cut"`: the connection broke). */
  readonly ended: Promise<"ended" | "cut">;
  #done = false;
  readonly #reader: ReadableStreamDefaultReader<string>;

  constructor(response: Response) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    this.ended = this.#read().finally(() => {
      this.#done = true;
    });
  }

  /** Resolves with the messages once `check` holds, or rejects if the stream ends first. */
  async until(check: (messages: Record<string, unknown>[]) => boolean): Promise<Record<string, unknown>[]> {
    for (;;) {
      const messages = messagesOf(this.events);
      if (check(messages)) return messages;
      if (this.#done) throw new Error(`the stream ended after ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** The client closes its side. */
  cancel(): Promise<void> {
    return this.#reader.cancel().catch(() => {});
  }

  async #read(): Promise<"ended" | "cut"> {
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (done) return "ended";
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const event: SseEvent = { id: undefined, data: "" };
          for (const line of buffer.slice(0, end).split("\n")) {
            if (line.startsWith("id:")) event.id = line.slice(3).trim();
            else if (line.startsWith("data:")) event.data += line.slice(5).trim();
          }
          buffer = buffer.slice(end + 2);
          this.events.push(event);
        }
      }
    } catch {
      return "cut";
    }
  }
}
