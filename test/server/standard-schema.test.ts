// Standard Schema tools with the real libraries (zod 4, valibot, arktype): validated with the library's own
// ~standard.validate (refinements, transforms, defaults, async checks), advertised as the library's JSON Schema,
// reached over MRTR and by a 2025 client; and the structured-only result filled with its JSON as text.
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import * as v from "valibot";
import { toJsonSchema, toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Client, type ElicitRequestParams } from "mcp-roundtrip/client";
import { McpServer, elicit, inputRequired } from "mcp-roundtrip/server";
import { pair, recordingLogger } from "./helpers.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };

async function call(server: McpServer, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await pair(server).result("tools/call", { name, arguments: args })) as unknown as ToolAnswer;
}

async function listed(server: McpServer, name: string): Promise<Record<string, unknown>> {
  const { tools } = (await pair(server).result("tools/list")) as { tools: Array<Record<string, unknown>> };
  return tools.find((tool) => tool.name === name)!;
}

describe("zod 4 tools", () => {
  const input = z.object({
    city: z.string().trim().min(1),
    days: z.number().int().max(7).default(3),
    when: z.iso.date().transform((day) => new Date(`${day}T00:00:00Z`)),
  });

  function forecast(seen: unknown[] = []) {
    return new McpServer({ name: "zod", version: "1.0.0" }).tool(
      "forecast",
      { inputSchema: input, outputSchema: z.object({ high: z.number(), unit: z.string().default("C") }) },
      (args) => {
        seen.push(args);
        return { structuredContent: { high: args.days * 10 + args.when.getUTCDate() } };
      },
    );
  }

  it("runs the transform and the default before the handler, which gets zod's output", async () => {
    const seen: unknown[] = [];
    const answer = await call(forecast(seen), "forecast", { city: "  Oslo ", when: "2026-05-04" });
    expect(seen).toEqual([{ city: "Oslo", days: 3, when: new Date("2026-05-04T00:00:00Z") }]);
    // The output schema's default applies too; content is filled with the structured JSON.
    expect(answer.structuredContent).toEqual({ high: 34, unit: "C" });
    expect(answer.content).toEqual([{ type: "text", text: JSON.stringify({ high: 34, unit: "C" }) }]);
  });

  it("answers a refinement failure with the tool error result naming the path, before the handler runs", async () => {
    const seen: unknown[] = [];
    const answer = await call(forecast(seen), "forecast", { city: "Oslo", days: 9, when: "2026-05-04" });
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toMatch(/^Invalid arguments for tool forecast: \/days /);
    expect(seen).toEqual([]);
  });

  it("advertises zod's own JSON Schema of the input and of the output", async () => {
    const tool = await listed(forecast(), "forecast");
    expect(tool.inputSchema).toEqual(z.toJSONSchema(input, { io: "input" }));
    expect(tool.outputSchema).toEqual(z.toJSONSchema(z.object({ high: z.number(), unit: z.string().default("C") }), { io: "output" }));
  });

  it("awaits an async refinement", async () => {
    const server = new McpServer({ name: "zod", version: "1.0.0" }).tool(
      "reserve",
      { inputSchema: z.object({ user: z.string().refine(async (name) => name !== "taken", "is taken") }) },
      ({ user }) => text(`reserved ${user}`),
    );
    expect(await call(server, "reserve", { user: "ada" })).toMatchObject(text("reserved ada"));
    const refused = await call(server, "reserve", { user: "taken" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toBe("Invalid arguments for tool reserve: /user is taken");
  });

  it("refuses at registration a schema zod cannot express as JSON Schema, naming the tool", () => {
    const server = new McpServer({ name: "zod", version: "1.0.0" });
    expect(() => server.tool("later", { inputSchema: z.object({ at: z.date() }) }, () => text(""))).toThrow(
      /McpServer\.tool\("later"\): inputSchema: the zod schema cannot be expressed as JSON Schema/,
    );
  });

  it("rejects structuredContent that fails the output schema as an internal error", async () => {
    const server = new McpServer({ name: "zod", version: "1.0.0" }, { logger: recordingLogger() }).tool(
      "bad",
      { outputSchema: z.object({ n: z.number() }) },
      () => ({ structuredContent: { n: "one" } }) as never,
    );
    const error = await pair(server).error("tools/call", { name: "bad", arguments: {} });
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("structuredContent of tool bad does not match its outputSchema: /n");
  });
});

describe("valibot tools", () => {
  const greet = v.object({ name: v.pipe(v.string(), v.minLength(2)), times: v.optional(v.number(), 1) });

  it("validates with valibot (pipes and defaults) and advertises @valibot/to-json-schema's schema, wrapped as Standard JSON Schema", async () => {
    const seen: unknown[] = [];
    const server = new McpServer({ name: "valibot", version: "1.0.0" }).tool("greet", { inputSchema: toStandardJsonSchema(greet) }, (args) => {
      seen.push(args);
      return text(`hi ${args.name}`.repeat(args.times));
    });
    expect(await call(server, "greet", { name: "Ada" })).toMatchObject(text("hi Ada"));
    expect(seen).toEqual([{ name: "Ada", times: 1 }]);
    const refused = await call(server, "greet", { name: "A" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^Invalid arguments for tool greet: \/name /);
    expect((await listed(server, "greet")).inputSchema).toEqual(toJsonSchema(greet, { target: "draft-2020-12" }));
  });

  it("runs a transform JSON Schema cannot express when the converter is told to leave it out (toJsonSchema option)", async () => {
    const trimmed = v.object({ name: v.pipe(v.string(), v.trim(), v.minLength(2)) });
    const seen: unknown[] = [];
    const server = new McpServer(
      { name: "valibot", version: "1.0.0" },
      { toJsonSchema: (schema) => toJsonSchema(schema as typeof trimmed, { errorMode: "ignore" }) },
    );
    server.tool("greet", { inputSchema: trimmed }, (args) => (seen.push(args), text(args.name)));
    expect(await call(server, "greet", { name: "  Ada " })).toMatchObject(text("Ada"));
    expect(seen).toEqual([{ name: "Ada" }]);
    expect((await listed(server, "greet")).inputSchema).toMatchObject({ properties: { name: { type: "string", minLength: 2 } }, required: ["name"] });
  });

  it("takes a bare valibot schema with McpServer's toJsonSchema option, and names the tool and the fix without it", async () => {
    const server = new McpServer({ name: "valibot", version: "1.0.0" }, { toJsonSchema }).tool("greet", { inputSchema: greet }, ({ name }) => text(name));
    expect((await listed(server, "greet")).inputSchema).toEqual(toJsonSchema(greet));
    expect(await call(server, "greet", { name: "Ada" })).toMatchObject(text("Ada"));
    expect(() => new McpServer({ name: "bare", version: "1.0.0" }).tool("greet", { inputSchema: greet }, () => text(""))).toThrow(
      /McpServer\.tool\("greet"\): inputSchema is a valibot schema without a JSON Schema converter.*toStandardJsonSchema.*toJsonSchema option/,
    );
  });
});

describe("arktype tools", () => {
  it("runs arktype's morphs and narrows before the handler, and advertises arktype's JSON Schema of the input", async () => {
    const input = type({ count: "string.numeric.parse", even: type("number").narrow((n) => n % 2 === 0) });
    const seen: unknown[] = [];
    const server = new McpServer({ name: "ark", version: "1.0.0" }).tool("double", { inputSchema: input, outputSchema: type({ doubled: "number" }) }, (args) => {
      seen.push(args);
      return { structuredContent: { doubled: args.count * 2 + args.even } };
    });
    expect((await call(server, "double", { count: "21", even: 0 })).structuredContent).toEqual({ doubled: 42 });
    expect(seen).toEqual([{ count: 21, even: 0 }]);
    const refused = await call(server, "double", { count: "21", even: 3 });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^Invalid arguments for tool double: \/even /);
    expect((await listed(server, "double")).inputSchema).toEqual(input["~standard"].jsonSchema.input({ target: "draft-2020-12" }));
    expect((await listed(server, "double")).inputSchema).toMatchObject({ properties: { count: { type: "string" }, even: { type: "number" } } });
  });

  it("refuses at registration an output schema whose converter throws, naming the tool and the schema", () => {
    // A library's converter may refuse a type (zod does for z.date(); arktype falls back to {} instead).
    const refusing = {
      "~standard": {
        version: 1,
        vendor: "custom",
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => ({ type: "object" }),
          output: () => {
            throw new Error("a Date has no JSON Schema");
          },
        },
      },
    } as const;
    expect(() => new McpServer({ name: "x", version: "1.0.0" }).tool("when", { outputSchema: refusing }, () => ({ structuredContent: {} }))).toThrow(
      'McpServer.tool("when"): outputSchema: the custom schema cannot be expressed as JSON Schema (a Date has no JSON Schema)',
    );
  });
});

describe("Standard Schema tools and the round trips", () => {
  const confirm = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;

  function deployServer(seen: unknown[]) {
    const server = new McpServer({ name: "deploy", version: "1.0.0" });
    // Declared dependencies: the resolvers and the body get zod's output.
    server.tool(
      "deploy",
      {
        inputSchema: z.object({ app: z.string().transform((name) => name.toLowerCase()) }),
        needs: (need) => need.add("confirm", (args) => elicit({ message: `Deploy ${args.app}?`, schema: confirm })),
      },
      (args, { confirm: answer }) => {
        seen.push(args);
        return text(answer.action === "accept" && answer.content.yes ? `deployed ${args.app}` : "kept");
      },
    );
    // By hand, with the as const form as requestedSchema.
    server.tool("ship", { inputSchema: type({ app: "string", "force?": "boolean" }) }, (args, ctx) => {
      const answer = ctx.inputResponses?.confirm as { action: string; content?: { yes?: boolean } } | undefined;
      if (answer === undefined) {
        return inputRequired({ inputRequests: { confirm: { method: "elicitation/create", params: { message: `Ship ${args.app}?`, requestedSchema: confirm } } } });
      }
      seen.push(args);
      return text(answer.content?.yes === true ? `shipped ${args.app}` : "kept");
    });
    return server;
  }

  const onElicit = vi.fn(async (params: ElicitRequestParams) => ({
    action: "accept" as const,
    content: { yes: params.message.startsWith("Deploy") || params.message.startsWith("Ship") },
  }));

  it("an MRTR round (declared needs and hand-built inputRequired) reaches the typed handler", async () => {
    const seen: unknown[] = [];
    const client = await Client.connect(deployServer(seen), { onElicit });
    expect(await client.callTool("deploy", { app: "Orders" })).toMatchObject(text("deployed orders"));
    expect(await client.callTool("ship", { app: "billing" })).toMatchObject(text("shipped billing"));
    expect(seen).toEqual([{ app: "orders" }, { app: "billing" }]);
  });

  it("a 2025 client's call reaches the typed handler over the back channel", async () => {
    const seen: unknown[] = [];
    const client = await Client.connect(deployServer(seen), { onElicit, mode: "2025-11-25" });
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(await client.callTool("deploy", { app: "Orders" })).toMatchObject(text("deployed orders"));
    expect(seen).toEqual([{ app: "orders" }]);
    await client.close();
  });

  it("never hands a Standard Schema to the server's JSON Schema compiler (so the eval-free builds stay eval-free)", () => {
    const compiled: unknown[] = [];
    const server = new McpServer({ name: "edge", version: "1.0.0" }, { compileSchema: (schema) => (compiled.push(schema), () => ({ ok: true })) });
    server.tool("std", { inputSchema: z.object({ a: z.number() }), outputSchema: type({ b: "number" }) }, ({ a }) => ({ structuredContent: { b: a } }));
    expect(compiled).toEqual([]);
  });
});

describe("Standard Schema prompt arguments", () => {
  const brief = z.object({ topic: z.string().min(2).describe("What the briefing is about"), words: z.coerce.number().int().max(500).optional() });

  function briefing(seen: unknown[] = []) {
    return new McpServer({ name: "prompts", version: "1.0.0" }).prompt("brief", { arguments: brief }, (args) => {
      seen.push(args);
      return [{ role: "user", content: { type: "text", text: `${args.topic} in ${args.words ?? 100} words` } }];
    });
  }

  it("lists the schema's properties as the prompt's arguments, with descriptions and required", async () => {
    const { prompts } = (await pair(briefing()).result("prompts/list")) as { prompts: unknown[] };
    expect(prompts).toEqual([{ name: "brief", arguments: [{ name: "topic", description: "What the briefing is about", required: true }, { name: "words" }] }]);
  });

  it("gives the handler zod's output (the string argument coerced to a number)", async () => {
    const seen: unknown[] = [];
    const result = await pair(briefing(seen)).result("prompts/get", { name: "brief", arguments: { topic: "tides", words: "250" } });
    expect(seen).toEqual([{ topic: "tides", words: 250 }]);
    expect(result).toMatchObject({ messages: [{ content: { text: "tides in 250 words" } }] });
  });

  it("answers arguments the schema refuses with -32602 naming the path", async () => {
    const seen: unknown[] = [];
    const error = await pair(briefing(seen)).error("prompts/get", { name: "brief", arguments: { topic: "tides", words: "9000" } });
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid arguments for prompt brief: \/words /);
    expect(seen).toEqual([]);
  });
});

describe("structured-only results", () => {
  it("fill content with one text block holding the JSON of structuredContent (JSON Schema tools too)", async () => {
    const server = new McpServer({ name: "sum", version: "1.0.0" }).tool(
      "sum",
      {
        inputSchema: { type: "object", properties: { values: { type: "array", items: { type: "number" } } }, required: ["values"] },
        outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
      },
      ({ values }) => ({ structuredContent: { total: values.reduce((a, b) => a + b, 0) } }),
    );
    const answer = await call(server, "sum", { values: [1, 2, 3.5] });
    expect(answer).toMatchObject({ structuredContent: { total: 6.5 }, content: [{ type: "text", text: '{"total":6.5}' }] });
  });

  it("leave content a handler gave alone", async () => {
    const server = new McpServer({ name: "sum", version: "1.0.0" }).tool(
      "sum",
      { outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] } },
      () => ({ content: [{ type: "text", text: "six" }], structuredContent: { total: 6 } }),
    );
    expect((await call(server, "sum", {})).content).toEqual([{ type: "text", text: "six" }]);
  });
});
