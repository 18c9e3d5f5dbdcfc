// The nesting guard's shortcut: a transport that decoded a message from text
// counts its `{` and `[` (openingsIn), and the server walks the parsed params
// only when that count does not already prove them within maxNestingDepth.
// The shortcut may save the walk, never change a verdict.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer, type ServerLogger } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { openingsIn } from "../../runtime/protocol/message.js";
import { assertNestingWithin } from "../../runtime/server/request.js";
import { META, mcpHeaders } from "../transport/helpers.js";

/** Levels of objects and arrays in a value: a scalar has none, `{}` one, `{"a":[1]}` two. */
function levels(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const items: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return 1 + items.reduce<number>((deepest, item) => Math.max(deepest, levels(item)), 0);
}

/** Whether the guard refuses `params` under `limit`, with or without a bound. */
function refused(params: unknown, limit: number, bound?: number): boolean {
  try {
    assertNestingWithin(params, limit, bound);
    return false;
  } catch {
    return true;
  }
}

/** A JSON value nested `depth` levels deep, as text (JSON.stringify itself overflows on very deep ones). */
const deepText = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

describe("openingsIn", () => {
  it("bounds how deep the parsed value nests, however the text is laid out", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, "\t"), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(levels(JSON.parse(text))).toBeLessThanOrEqual(openingsIn(text));
      }),
      { numRuns: 500 },
    );
  });

  it("counts brackets inside strings too, which only loosens the bound", () => {
    expect(openingsIn('{"text":"[{[{"}')).toBe(5);
    expect(openingsIn('"no containers"')).toBe(0);
  });

  it("gives up past 256 openings: such a text proves nothing", () => {
    expect(openingsIn(deepText(256))).toBe(256);
    expect(openingsIn(deepText(257))).toBe(Number.POSITIVE_INFINITY);
    expect(openingsIn(`[${"[],".repeat(300)}1]`)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("the nesting guard with a bound from the text", () => {
  it("refuses exactly the params it refuses without one", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.integer({ min: 1, max: 12 }), (params, limit) => {
        const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
        expect(refused(params, limit, openingsIn(text))).toBe(refused(params, limit));
      }),
      { numRuns: 500 },
    );
  });

  it("still walks params whose text is too deep for the bound to prove anything", () => {
    const params = JSON.parse(`{"arguments":${deepText(150)}}`);
    expect(refused(params, 100, openingsIn(JSON.stringify(params)))).toBe(true);
    expect(refused(params, 200, openingsIn(JSON.stringify(params)))).toBe(false);
  });
});

describe("over HTTP, at the limit", () => {
  const quiet: ServerLogger = { warn() {}, error() {} };
  let http: HttpServerHandle;
  beforeAll(async () => {
    const mcp = new McpServer({ name: "nesting", version: "1.0.0" }, { logger: quiet, maxNestingDepth: 6 });
    mcp.tool("count", { inputSchema: { type: "object" } }, (args) => ({ content: [{ type: "text", text: String(Object.keys(args).length) }] }));
    http = await serveHttp(mcp);
  });
  afterAll(() => http.close());

  // params (1) › arguments (2) › deep … : `depth` levels under arguments nest params 2 + depth deep.
  const call = (depth: number) =>
    fetch(http.url, {
      method: "POST",
      headers: mcpHeaders("tools/call", "count"),
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"deep":${deepText(depth)}},"_meta":${JSON.stringify(META)}}}`,
    }).then((response) => response.json());

  it("runs params nested as deep as maxNestingDepth allows", async () => {
    // 4 levels under arguments: params nest 6 deep. The text holds more openings than 6 (the message's, _meta's), so the walk decides.
    expect((await call(4)).result.content[0].text).toBe("1");
  });

  it("refuses params one level deeper, naming the limit", async () => {
    const json = await call(5);
    expect(json.error.code).toBe(-32602);
    expect(json.error.data).toEqual({ maxNestingDepth: 6 });
  });
});
