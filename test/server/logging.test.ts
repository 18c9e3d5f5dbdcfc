// The server's one logger shape: console as is, a pino logger (called (fields, message)),
// a level option (default warn), and the lines a user sees for request-state rejections.
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import pino from "pino";
import { McpServer, RequestStateSecurity, createLogger, elicit, type LogLevel, type RequestStateLogger, type ServerLogger } from "mcp-roundtrip/server";
import { meta } from "./helpers.js";

afterEach(() => vi.restoreAllMocks());

const nameForm = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

function server(options: Record<string, unknown>) {
  const mcp = new McpServer({ name: "logging-test", version: "1.0.0" }, options);
  mcp.tool("greet", { inputSchema: { type: "object" }, needs: (need) => need.add("who", () => elicit({ message: "Name?", schema: nameForm })) }, () => ({
    content: [],
  }));
  return mcp;
}

const call = (mcp: McpServer, extra: Record<string, unknown> = {}) =>
  mcp.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta({ elicitation: {} }), name: "greet", arguments: {}, ...extra } });

describe("createLogger", () => {
  it("drops lines below the level, keeps the rest, and a throwing sink never breaks the caller", () => {
    const sink = {
      debug: vi.fn(),
      info: vi.fn(),
      warn: vi.fn(),
      error: vi.fn(() => {
        throw new Error("disk full");
      }),
    };
    const log = createLogger(sink, "info");
    log.debug("hidden");
    log.info("shown", { tool: "x" });
    log.warn("no fields");
    expect(() => log.error("still fine")).not.toThrow();
    expect(sink.debug).not.toHaveBeenCalled();
    expect(sink.info).toHaveBeenCalledWith("shown", { tool: "x" });
    expect(sink.warn).toHaveBeenCalledWith("no fields");
    expect(log.enabled("debug")).toBe(false);
    expect(log.enabled("warn")).toBe(true);
  });

  it.each<[LogLevel, string[]]>([
    ["debug", ["debug", "info", "warn", "error"]],
    ["warn", ["warn", "error"]],
    ["silent", []],
  ])("at %s writes %j", (level, written) => {
    const seen: string[] = [];
    const sink = Object.fromEntries(["debug", "info", "warn", "error"].map((name) => [name, () => void seen.push(name)])) as never;
    const log = createLogger(sink, level);
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(seen).toEqual(written);
  });

  it("refuses what is not a logger, and an unknown level, saying what it expected", () => {
    expect(() => createLogger({} as never)).toThrow("logger: expected an object with warn() and error() methods, such as console or a pino logger");
    expect(() => createLogger(console, "verbose" as never)).toThrow('logLevel: expected "debug", "info", "warn", "error" or "silent", got "verbose"');
    expect(() => new McpServer({ name: "x-logging", version: "1" }, { logLevel: "loud" as never })).toThrow(/logLevel/);
  });
});

describe("the server's logger", () => {
  it("takes console as is: at debug a round's decision goes to console.debug with its fields", async () => {
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {});
    await call(server({ logger: console, logLevel: "debug" }));
    expect(debug).toHaveBeenCalledWith('tools/call "greet": round 1: asking "who" (not asked yet)', {
      method: "tools/call",
      tool: "greet",
      round: 1,
      decision: "asked",
      inputKeys: ["who"],
      reasked: [],
    });
  });

  it("defaults to console at warn: no debug line, and a rejected requestState is warned with its reason as fields", async () => {
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const mcp = server({});
    const response = (await call(mcp, { requestState: "v1.not-a-token", inputResponses: { who: { action: "decline" } } })) as { error: { code: number } };
    expect(response.error.code).toBe(-32602);
    expect(debug).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    const [message, fields] = warn.mock.calls[0]! as [string, Record<string, unknown>];
    expect(message).toMatch(/^requestState rejected \(\w+\) on tools\/call "greet": /);
    expect(fields).toMatchObject({ method: "tools/call", target: "greet", reason: expect.any(String) });
    expect(JSON.stringify(warn.mock.calls)).not.toContain("v1.not-a-token");
  });

  it("calls a real pino logger its own way, (fields, message), and the JSON line carries both", async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level: "debug" }, stream);
    await call(server({ logger, logLevel: "debug" }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 20,
        msg: 'tools/call "greet": round 1: asking "who" (not asked yet)',
        tool: "greet",
        round: 1,
        decision: "asked",
        inputKeys: ["who"],
      }),
    ]);
  });

  it("recognises a pino-shaped object (levels and child) without pino installed", async () => {
    const calls: unknown[][] = [];
    const record = (...args: unknown[]) => void calls.push(args);
    const pinoShaped = { levels: { values: { debug: 20 } }, child: () => pinoShaped, debug: record, info: record, warn: record, error: record };
    await call(server({ logger: pinoShaped, logLevel: "debug" }));
    expect(calls).toEqual([[expect.objectContaining({ tool: "greet", decision: "asked" }), 'tools/call "greet": round 1: asking "who" (not asked yet)']]);
  });
});

describe("-32603 lines", () => {
  it("carry no cause field when the error has none, and the cause when it has one", async () => {
    const sink = { warn: vi.fn(), error: vi.fn() };
    const mcp = new McpServer({ name: "logging-test", version: "1.0.0" }, { logger: sink });
    const counter = { type: "object", properties: { count: { type: "integer" } }, required: ["count"] } as const;
    // A result the types refuse (a cast stands for plain JavaScript): the server answers -32603 and logs why.
    mcp.tool("count", { outputSchema: counter }, () => ({ structuredContent: { count: "4" } }) as never);
    const bad = await mcp.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta({}), name: "count", arguments: {} } });
    expect(bad).toMatchObject({ error: { code: -32603 } });
    expect(sink.error).toHaveBeenCalledTimes(1);
    expect(sink.error.mock.calls[0]).toEqual([
      expect.stringMatching(/^tools\/call: Internal error: structuredContent of tool count does not match its outputSchema/),
    ]);
    // A handler's own throw keeps its error as a field: that is where the details are.
    const boom = new Error("database down");
    mcp.tool("boom", {}, () => {
      throw boom;
    });
    await mcp.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { _meta: meta({}), name: "boom", arguments: {} } });
    expect(sink.error).toHaveBeenLastCalledWith("tools/call: handler threw; answering -32603", { error: boom });
  });
});

describe("one shape for the server and request-state sealing", () => {
  it("a server's logger, console and a levelled logger are RequestStateLoggers; a pino logger given to RequestStateSecurity is called (fields, message)", async () => {
    const fromServer: ServerLogger = console;
    const asState: RequestStateLogger[] = [fromServer, console, createLogger(console, "debug")];
    expect(asState).toHaveLength(3);
    const calls: unknown[][] = [];
    const record = (...args: unknown[]) => void calls.push(args);
    const pinoShaped = { levels: { values: { info: 30 } }, child: () => pinoShaped, debug: record, info: record, warn: record, error: record };
    const security = new RequestStateSecurity({ keys: [new Uint8Array(32).fill(7)], logger: pinoShaped as unknown as RequestStateLogger });
    await expect(security.verify("v1.garbage", { method: "tools/call", target: "t", arguments: {} })).rejects.toThrow();
    const warned = calls.find(([fields]) => typeof fields === "object" && (fields as { reason?: unknown }).reason !== undefined)!;
    expect(warned[0]).toMatchObject({ method: "tools/call", target: "t", reason: expect.any(String) });
    expect(warned[1]).toMatch(/^requestState rejected \(\w+\) on tools\/call "t": /);
  });
});
