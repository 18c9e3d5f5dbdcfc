// The spec deprecates Sampling, Roots and Logging (2026-07-28, SEP-2577): the APIs that
// serve them say so in their TSDoc, with the reason and the way out, and still work.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listRoots, sample } from "mcp-roundtrip/server";

const source = (path: string) => readFileSync(new URL(`../../runtime/${path}`, import.meta.url), "utf8");

/** The TSDoc block right before `marker` in `text`. */
function docBefore(text: string, marker: string): string {
  const at = text.indexOf(marker);
  expect(at, marker).toBeGreaterThan(0);
  const start = text.lastIndexOf("/**", at);
  return text.slice(start, text.indexOf("*/", start));
}

const CASES: [string, string, string, RegExp][] = [
  ["sample()", "server/dependencies/client-queries.ts", "export function sample(", /Sampling.*SEP-2577[\s\S]*LLM provider/],
  [
    "listRoots()",
    "server/dependencies/client-queries.ts",
    "export function listRoots(",
    /Roots.*SEP-2577[\s\S]*tool arguments, resource URIs or[\s\S]*configuration/,
  ],
  ["SampleCallback", "client/callbacks.ts", "export type SampleCallback", /Sampling.*SEP-2577/],
  ["ListRootsCallback", "client/callbacks.ts", "export type ListRootsCallback", /Roots.*SEP-2577/],
  ["onSample", "client/callbacks.ts", "  onSample?:", /Sampling is deprecated/],
  ["onListRoots", "client/callbacks.ts", "  onListRoots?:", /Roots is deprecated/],
  ["ctx.log", "server/context.ts", "  log(level: LoggingLevel", /Logging.*SEP-2577[\s\S]*stderr[\s\S]*OpenTelemetry/],
  ["ctx.logLevel", "server/context.ts", "  readonly logLevel: LoggingLevel | undefined;\n  /** The verified", /Logging.*SEP-2577/],
  ["onLog", "client/call-notifications.ts", "  onLog?:", /Logging.*SEP-2577/],
];

describe("deprecated features", () => {
  it.each(CASES)("%s carries @deprecated with the reason", (_name, file, marker, reason) => {
    const doc = docBefore(source(file), marker);
    expect(doc).toContain("@deprecated");
    expect(doc.slice(doc.indexOf("@deprecated"))).toMatch(reason);
  });

  it("still works: sample() and listRoots() build the same requests", () => {
    expect(sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }).request.method).toBe("sampling/createMessage");
    expect(listRoots().request).toEqual({ method: "roots/list" });
  });
});
