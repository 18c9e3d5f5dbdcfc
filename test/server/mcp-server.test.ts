// McpServer registrations: validation before handlers, output schemas, prompts, resources, completion.
import { describe, expect, it } from "vitest";
import { inputRequired, McpServer, UriTemplate } from "mcp-roundtrip/server";
import { pair, recordingLogger } from "./helpers.js";

const ELICIT = { elicitation: {} };

function weather() {
  let runs = 0;
  const mcp = new McpServer({ name: "weather", version: "1.0.0" }, { logger: recordingLogger() });
  mcp.tool(
    "forecast",
    {
      description: "Forecast for a city",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string", minLength: 1 }, days: { type: "integer", minimum: 1, maximum: 7 } },
        required: ["city"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { high: { type: "number" } }, required: ["high"] },
    },
    (args) => {
      runs++;
      // Deliberately wrong results (the types refuse them; plain JavaScript or a cast can still return them).
      if (args.city === "nowhere") return { content: [], structuredContent: { high: "hot" } } as never;
      if (args.city === "missing") return { content: [] } as never;
      if (args.city === "broken") return { content: [{ type: "text", text: "station down" }], isError: true };
      return { content: [{ type: "text", text: `${String(args.city)}: 21` }], structuredContent: { high: 21.5 } };
    },
  );
  return { mcp, runs: () => runs };
}

describe("McpServer tools", () => {
  it("lists tools with their schemas", async () => {
    const list = await pair(weather().mcp).result("tools/list");
    expect(list).toMatchObject({
      tools: [{ name: "forecast", description: "Forecast for a city", inputSchema: { required: ["city"] }, outputSchema: { required: ["high"] } }],
      cacheScope: "public",
    });
  });

  it("calls a tool with valid arguments", async () => {
    const result = await pair(weather().mcp).result("tools/call", { name: "forecast", arguments: { city: "Oslo", days: 3 } });
    expect(result).toMatchObject({ resultType: "complete", structuredContent: { high: 21.5 } });
  });

  it.each([
    [{}, "/city is required"],
    [{ city: "" }, "/city"],
    [{ city: "Oslo", days: 1.5 }, "/days must be integer"],
    [{ city: "Oslo", days: 9 }, "/days"],
    [{ city: "Oslo", extra: true }, "/extra"],
  ])("answers arguments %j with a tool execution error, before the handler runs", async (args, expected) => {
    const { mcp, runs } = weather();
    const result = (await pair(mcp).result("tools/call", { name: "forecast", arguments: args })) as {
      isError?: boolean;
      content: { type: string; text: string }[];
    };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^Invalid arguments for tool forecast: /);
    expect(result.content[0]!.text).toContain(expected);
    expect(runs()).toBe(0);
  });

  it("treats absent arguments as {}", async () => {
    const result = await pair(weather().mcp).result("tools/call", { name: "forecast" });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("/city is required") }] });
  });

  it("answers an unknown tool with -32602", async () => {
    expect(await pair(weather().mcp).error("tools/call", { name: "nope" })).toEqual({ code: -32602, message: "Unknown tool: nope" });
  });

  it("checks structuredContent against the outputSchema", async () => {
    const client = pair(weather().mcp);
    const wrong = await client.error("tools/call", { name: "forecast", arguments: { city: "nowhere" } });
    expect(wrong.code).toBe(-32603);
    expect(wrong.message).toContain("/high");
    const missing = await client.error("tools/call", { name: "forecast", arguments: { city: "missing" } });
    expect(missing.message).toContain("no structuredContent");
    const toolError = await client.result("tools/call", { name: "forecast", arguments: { city: "broken" } });
    expect(toolError).toMatchObject({ isError: true });
  });

  it("accepts draft-07 schemas and rejects unknown dialects at registration", async () => {
    const mcp = new McpServer({ name: "d7", version: "1" });
    mcp.tool(
      "sum",
      { inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "number" } }, required: ["a"] } },
      (args) => ({ content: [{ type: "text", text: String(args.a) }] }),
    );
    expect(await pair(mcp).result("tools/call", { name: "sum", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("/a is required") }],
    });
    expect(() => mcp.tool("bad", { inputSchema: { $schema: "https://example.com/my-dialect", type: "object" } }, () => ({ content: [] }))).toThrow(
      /unsupported JSON Schema dialect/,
    );
  });

  it("rejects misuse at registration", () => {
    const mcp = new McpServer({ name: "misuse", version: "1" });
    mcp.tool("a", {}, () => ({ content: [] }));
    expect(() => mcp.tool("a", {}, () => ({ content: [] }))).toThrow(/already registered/);
    expect(() => mcp.tool("", {}, () => ({ content: [] }))).toThrow(TypeError);
    expect(() => mcp.tool("b", {}, "x" as never)).toThrow(/must be a function/);
    expect(() => mcp.tool("c", { inputSchema: { type: "string" } }, () => ({ content: [] }))).toThrow(/must describe an object/);
    expect(() => mcp.tool("d", { inputSchema: { type: "object", properties: { x: { type: "nonsense" } } } }, () => ({ content: [] }))).toThrow(
      /not a valid JSON Schema/,
    );
  });

  it("passes the context: principal, capabilities, signal", async () => {
    const mcp = new McpServer({ name: "ctx", version: "1" });
    mcp.tool("who", {}, (_args, ctx) => ({
      content: [{ type: "text", text: JSON.stringify({ principal: ctx.principal, caps: ctx.clientCapabilities, aborted: ctx.signal.aborted, method: ctx.method }) }],
    }));
    const result = await pair(mcp, { roots: {} }).result(
      "tools/call",
      { name: "who" },
      { authInfo: { clientId: "app", issuer: "https://id", subject: "u1", scopes: [] } },
    );
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({
      principal: JSON.stringify(["app", "https://id", "u1"]),
      caps: { roots: {} },
      aborted: false,
      method: "tools/call",
    });
  });
});

describe("McpServer prompts", () => {
  const mcp = new McpServer({ name: "prompts", version: "1" });
  mcp.prompt(
    "review",
    {
      description: "Review code",
      arguments: [{ name: "code", required: true }, { name: "style" }],
      complete: { style: (value) => ["terse", "thorough", "kind"].filter((s) => s.startsWith(value)) },
    },
    (args) => ({ description: "A review", messages: [{ role: "user", content: { type: "text", text: `Review (${args.style ?? "any"}): ${args.code}` } }] }),
  );

  it("returns the messages", async () => {
    const result = await pair(mcp).result("prompts/get", { name: "review", arguments: { code: "x = 1" } });
    expect(result).toMatchObject({ resultType: "complete", description: "A review", messages: [{ content: { text: "Review (any): x = 1" } }] });
  });

  it("rejects a missing required argument and an unknown prompt with -32602", async () => {
    const client = pair(mcp);
    expect(await client.error("prompts/get", { name: "review" })).toEqual({ code: -32602, message: "Missing required arguments for prompt review: code" });
    expect(await client.error("prompts/get", { name: "nope" })).toEqual({ code: -32602, message: "Unknown prompt: nope" });
  });

  it("completes an argument", async () => {
    const result = await pair(mcp).result("completion/complete", { ref: { type: "ref/prompt", name: "review" }, argument: { name: "style", value: "t" } });
    expect(result.completion).toEqual({ values: ["terse", "thorough"], total: 2, hasMore: false });
  });

  it("answers prompts/list for a server without prompts with -32601", async () => {
    const error = await pair(weather().mcp).error("prompts/list");
    expect(error).toMatchObject({ code: -32601, message: "Prompts not supported" });
  });
});

describe("McpServer resources", () => {
  function files() {
    const mcp = new McpServer({ name: "files", version: "1" });
    mcp.resource("config://app", { description: "App config", mimeType: "application/json" }, () => '{"debug":false}');
    mcp.resource("config://asks", {}, () => inputRequired({ requestState: "s" }) as never);
    mcp.resource(new UriTemplate("file:///{+path}"), { complete: { path: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`) } }, (uri, { path }) => ({
      contents: [{ uri, text: `contents of ${String(path)}` }],
    }));
    return mcp;
  }

  it("reads a static resource with its MIME type", async () => {
    const result = await pair(files()).result("resources/read", { uri: "config://app" });
    expect(result.contents).toEqual([{ uri: "config://app", mimeType: "application/json", text: '{"debug":false}' }]);
  });

  it("reads through a template with decoded variables", async () => {
    const result = await pair(files()).result("resources/read", { uri: "file:///src/a%20b.ts" });
    expect(result.contents).toEqual([{ uri: "file:///src/a%20b.ts", text: "contents of src/a b.ts" }]);
  });

  it("answers an unknown URI with -32602 Resource not found", async () => {
    expect(await pair(files()).error("resources/read", { uri: "config://nope" })).toEqual({
      code: -32602,
      message: "Resource not found",
      data: { uri: "config://nope" },
    });
  });

  it("does not let a static resource ask for input", async () => {
    const error = await pair(files(), ELICIT).error("resources/read", { uri: "config://asks" });
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("only resource templates may ask");
  });

  it("caps completion at 100 values and says there are more", async () => {
    const result = await pair(files()).result("completion/complete", {
      ref: { type: "ref/resource", uri: "file:///{+path}" },
      argument: { name: "path", value: "f" },
    });
    expect(result.completion).toMatchObject({ total: 150, hasMore: true });
    expect((result.completion as { values: string[] }).values).toHaveLength(100);
  });

  it("advertises what is registered", async () => {
    const caps = (await pair(files()).result("server/discover")).capabilities;
    expect(caps).toEqual({ resources: { listChanged: true, subscribe: true }, completions: {} });
  });

  it("rejects misuse at registration", () => {
    const mcp = files();
    expect(() => mcp.resource("config://app", {}, () => "x")).toThrow(/already registered/);
    expect(() => mcp.resource("not a uri", {}, () => "x")).toThrow(/absolute URI/);
    expect(() => mcp.resource("file:///{+path}", {}, () => "x")).toThrow(/already registered/);
    expect(() => mcp.resource("x://{a", {}, () => "x")).toThrow(/unclosed/);
    expect(() => mcp.resource("x://{a}", { complete: { b: () => [] } }, () => "x")).toThrow(/names no declared argument/);
  });
});

describe("McpServer compileSchema", () => {
  it("uses the supplied compiler for input and output schemas", async () => {
    const compiled: string[] = [];
    const mcp = new McpServer(
      { name: "custom-schema", version: "1" },
      {
        compileSchema: (_schema, label) => {
          compiled.push(label);
          return (value) =>
            typeof value === "object" && value !== null && "ok" in value
              ? { ok: true }
              : { ok: false, issues: [{ path: "/ok", message: "is required" }], message: "/ok is required" };
        },
      },
    );
    mcp.tool("t", { outputSchema: { type: "object" } }, () => ({ content: [], structuredContent: { ok: 1 } }));
    expect(compiled).toEqual(['inputSchema of tool "t"', 'outputSchema of tool "t"']);
    const client = pair(mcp);
    expect(await client.result("tools/call", { name: "t", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Invalid arguments for tool t: /ok is required" }],
    });
    expect((await client.result("tools/call", { name: "t", arguments: { ok: true } })).structuredContent).toEqual({ ok: 1 });
  });
});

describe("McpServer caching hints", () => {
  it("marks its lists public and keeps those defaults when one method is configured", async () => {
    const mcp = new McpServer({ name: "cache", version: "1" }, { cache: { "resources/read": { ttlMs: 5_000, cacheScope: "private" } } });
    mcp.tool("t", {}, () => ({ content: [] }));
    mcp.resource("config://a", {}, () => "a");
    const client = pair(mcp);
    expect(await client.result("tools/list")).toMatchObject({ ttlMs: 0, cacheScope: "public" });
    expect(await client.result("resources/read", { uri: "config://a" })).toMatchObject({ ttlMs: 5_000, cacheScope: "private" });
    expect(await client.result("resources/list")).toMatchObject({ ttlMs: 0, cacheScope: "public" });
  });
});
