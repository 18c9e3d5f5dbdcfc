import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParser, sseEvent, type SseMessage } from "../../runtime/transport/http/sse.js";

function parseAll(chunks: string[]): SseMessage[] {
  const events: SseMessage[] = [];
  const parser = new SseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

/** Splits `text` at the given cut points (any, including inside CRLF pairs). */
function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let last = 0;
  for (const point of points) {
    parts.push(text.slice(last, point));
    last = point;
  }
  parts.push(text.slice(last));
  return parts;
}

describe("SSE framing", () => {
  it("reads back what the server writes, however the stream is chunked", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 8 }), (messages, cuts) => {
        const text = messages.map((message) => sseEvent(message)).join("");
        const events = parseAll(split(text, cuts));
        expect(events.map((event) => JSON.parse(event.data))).toEqual(messages.map((m) => JSON.parse(JSON.stringify(m))));
        expect(events.every((event) => event.event === "message")).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("handles CRLF and CR line endings, comments, multi-line data and a missing final blank line", () => {
    const text = ': keep-alive\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: 2\rdata: 3\r\rdata: last';
    const events = parseAll(split(text, [3, 17, 18, 40]));
    expect(events).toEqual([
      { event: "message", data: '{"a":\n1}' },
      { event: "message", data: "2\n3" },
      { event: "message", data: "last" },
    ]);
  });
});
