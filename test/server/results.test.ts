// What every result carries: resultType, serverInfo, caching hints where the spec wants them.
import { describe, expect, it } from "vitest";
import { inputRequired, Server } from "mcp-roundtrip/server";
import { validate, validateResult } from "mcp-roundtrip/validate";
import { ALL_VERSIONS } from "../../runtime/protocol/revisions.js";
import { meta, pair } from "./helpers.js";

const SERVER_INFO = { name: "results", version: "2.0.0" };

function fullServer(options: ConstructorParameters<typeof Server>[2] = {}) {
  return new Server(
    SERVER_INFO,
    {
      onListTools: () => ({ tools: [{ name: "t", inputSchema: { type: "object" } }] }),
      onCallTool: (params) => (params.name === "ask" ? inputRequired({ requestState: "s" }) : { content: [{ type: "text", text: "ok" }] }),
      onListPrompts: () => ({ prompts: [{ name: "p" }] }),
      onGetPrompt: () => ({ messages: [] }),
      onListResources: () => ({ resources: [] }),
      onListResourceTemplates: () => ({ resourceTemplates: [] }),
      onReadResource: (params) => ({ contents: [{ uri: params.uri, text: "x" }] }),
      onComplete: () => ({ completion: { values: ["a"] } }),
    },
    options,
  );
}

const CALLS: [string, Record<string, unknown>][] = [
  ["server/discover", {}],
  ["tools/list", {}],
  ["tools/call", { name: "t" }],
  ["prompts/list", {}],
  ["prompts/get", { name: "p" }],
  ["resources/list", {}],
  ["resources/templates/list", {}],
  ["resources/read", { uri: "file:///x" }],
  ["completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }],
];
const CACHEABLE = new Set(["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"]);

describe("every result", () => {
  it.each(CALLS)("%s: resultType complete, serverInfo in _meta, valid against the schema", async (method, params) => {
    const result = await pair(fullServer()).result(method, params);
    expect(result.resultType).toBe("complete");
    expect(result._meta).toEqual({ "io.modelcontextprotocol/serverInfo": SERVER_INFO });
    expect(validateResult(method, result).ok).toBe(true);
    if (CACHEABLE.has(method)) {
      expect(Number.isInteger(result.ttlMs) && (result.ttlMs as number) >= 0).toBe(true);
      expect(["public", "private"]).toContain(result.cacheScope);
    } else {
      expect(result).not.toHaveProperty("ttlMs");
      expect(result).not.toHaveProperty("cacheScope");
    }
  });

  it("keeps the handler's own _meta keys and caching hints", async () => {
    const server = new Server(SERVER_INFO, {
      onListTools: () => ({ tools: [], ttlMs: 60_000, cacheScope: "public", _meta: { "com.example/trace": "t1" } }),
    });
    const result = await pair(server).result("tools/list");
    expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: "public", _meta: { "com.example/trace": "t1", "io.modelcontextprotocol/serverInfo": SERVER_INFO } });
  });

  it("uses configured caching defaults per method", async () => {
    const result = await pair(fullServer({ cache: { "tools/list": { ttlMs: 300_000, cacheScope: "public" } } })).result("tools/list");
    expect(result).toMatchObject({ ttlMs: 300_000, cacheScope: "public" });
    expect(() => fullServer({ cache: { "tools/call": { ttlMs: 1, cacheScope: "public" } } as never })).toThrow(TypeError);
    expect(() => fullServer({ cache: { "tools/list": { ttlMs: -1, cacheScope: "public" } } })).toThrow(/ttlMs/);
  });

  it("does not mutate the object a handler returned", async () => {
    const shared = Object.freeze({ tools: Object.freeze([]) });
    const server = new Server(SERVER_INFO, { onListTools: () => shared as never });
    await pair(server).result("tools/list");
    await pair(server).result("tools/list");
    expect(shared).toEqual({ tools: [] });
  });
});

describe("InputRequiredResult", () => {
  it("carries resultType input_required and serverInfo, and no caching hints", async () => {
    const result = await pair(fullServer()).result("tools/call", { name: "ask" });
    expect(result).toEqual({ resultType: "input_required", requestState: "s", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } });
    expect(validate("InputRequiredResult", result).ok).toBe(true);
  });
});

describe("server/discover", () => {
  it("reports versions, derived capabilities, instructions", async () => {
    const server = fullServer({ instructions: "Use t for everything.", capabilities: { tools: { listChanged: true }, logging: {} } });
    const result = await pair(server).result("server/discover");
    expect(result).toMatchObject({
      supportedVersions: [...ALL_VERSIONS],
      capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, completions: {}, logging: {} },
      instructions: "Use t for everything.",
      cacheScope: "public",
      ttlMs: 0,
    });
    expect(validate("DiscoverResult", result).ok).toBe(true);
  });

  it("advertises only what the handlers provide", async () => {
    const server = new Server(SERVER_INFO, { onListTools: () => ({ tools: [] }) });
    expect((await pair(server).result("server/discover")).capabilities).toEqual({ tools: {} });
  });

  it("works with no handlers at all", async () => {
    expect((await pair(new Server(SERVER_INFO)).result("server/discover")).capabilities).toEqual({});
  });
});

describe("construction errors", () => {
  it("rejects bad server info and non-function handlers", () => {
    expect(() => new Server({ name: "x" } as never)).toThrow(TypeError);
    expect(() => new Server(null as never)).toThrow(TypeError);
    expect(() => new Server(SERVER_INFO, { onCallTool: "nope" as never })).toThrow(/onCallTool must be a function/);
    expect(() => new Server(SERVER_INFO).use({} as never)).toThrow(TypeError);
  });
});

describe("options and context plumbing", () => {
  it("skips result validation when validateResults is false", async () => {
    const server = new Server(SERVER_INFO, { onCallTool: () => ({ content: [{ type: "text" }] }) as never }, { validateResults: false });
    expect((await pair(server).result("tools/call", { name: "t" })).content).toEqual([{ type: "text" }]);
  });

  it("forwards ctx.sendNotification to the transport, with the request's progress token readable from ctx.meta", async () => {
    const sent: unknown[] = [];
    const server = new Server(SERVER_INFO, {
      onCallTool: async (_params, ctx) => {
        await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: ctx.meta.progressToken as string, progress: 1 } });
        return { content: [] };
      },
    });
    await pair(server).result("tools/call", { name: "t", _meta: { ...meta(), progressToken: "p1" } }, { sendNotification: (n) => void sent.push(n) });
    expect(sent).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p1", progress: 1 } }]);
  });

  it("resolves sendNotification quietly when the transport has no channel", async () => {
    const server = new Server(SERVER_INFO, {
      onCallTool: async (_params, ctx) => {
        await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
        return { content: [] };
      },
    });
    expect((await pair(server).result("tools/call", { name: "t" })).resultType).toBe("complete");
  });
});
