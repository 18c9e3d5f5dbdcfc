import { describe, expect, it, vi } from "vitest";
import { Client, isInputRequired, McpError, type ElicitRequestParams, type ElicitResult, type InputRequiredResult } from "mcp-roundtrip/client";
import { McpServer, UriTemplate, elicit, needs, sample, type JsonRpcResponse } from "mcp-roundtrip/server";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";

const audienceForm = {
  type: "object",
  properties: { audience: { type: "string", enum: ["engineers", "executives"] } },
  required: ["audience"],
} as const;
const lengthForm = { type: "object", properties: { words: { type: "integer", minimum: 50, maximum: 500 } }, required: ["words"] } as const;
const formatForm = { type: "object", properties: { format: { type: "string", enum: ["csv", "json"] } }, required: ["format"] } as const;

const FIXED_REJECTION = { code: -32602, message: "Invalid or expired requestState", data: { reason: "invalid_request_state" } };

/** Records the params of every request of `method` that reaches the server, so tests can count rounds. */
function counting(server: MessageHandler, method: string) {
  const calls: Array<{ inputResponses?: Record<string, unknown>; requestState?: unknown }> = [];
  const handler: MessageHandler = {
    handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
      const m = message as { method?: string; params?: { inputResponses?: Record<string, unknown>; requestState?: unknown } };
      if (m.method === method) calls.push({ inputResponses: m.params?.inputResponses, requestState: m.params?.requestState });
      return server.handle(message, context);
    },
  };
  return { handler, calls };
}

const messageOf = (params: ElicitRequestParams): string => (params as { message: string }).message;

/** A server with a briefing prompt (two independent questions), a report template (one) and a tool. */
function briefingServer(promptBody = vi.fn(), readBody = vi.fn(), logger = { warn: vi.fn(), error: vi.fn() }) {
  const server = new McpServer({ name: "briefing-needs", version: "1.0.0" }, { logger });
  server.prompt(
    "briefing",
    {
      description: "Draft a briefing",
      arguments: [{ name: "topic", required: true }],
      needs: (need) =>
        need
          .add("audience", (args) => elicit({ message: `Who is the briefing on ${args.topic} for?`, schema: audienceForm }))
          .add("length", () => elicit({ message: "How many words?", schema: lengthForm })),
    },
    (args, { audience, length }, ctx) => {
      promptBody(args, { audience, length }, ctx);
      const who = audience.action === "accept" ? audience.content.audience : "everyone";
      const words = length.action === "accept" ? length.content.words : 100;
      return [{ role: "user", content: { type: "text", text: `Brief ${who} on ${args.topic} in ${words} words.` } }];
    },
  );
  server.prompt(
    "other",
    { arguments: [{ name: "topic" }], needs: (need) => need.add("audience", () => elicit({ message: "Who?", schema: audienceForm })) },
    () => [],
  );
  server.resource(
    "report://{quarter}",
    {
      description: "A quarterly report",
      mimeType: "text/plain",
      needs: (need) => need.add("format", (variables) => elicit({ message: `Which format for ${String(variables.quarter)}?`, schema: formatForm })),
    },
    (uri, variables, { format }) => {
      readBody(uri, variables, format);
      return `report ${String(variables.quarter)} as ${format.action === "accept" ? format.content.format : format.action}`;
    },
  );
  server.tool("briefing", { needs: (need) => need.add("audience", () => elicit({ message: "Who?", schema: audienceForm })) }, () => ({ content: [] }));
  return server;
}

describe("declared dependencies on prompts", () => {
  it("asks two independent questions in one round and renders with the answers", async () => {
    const body = vi.fn();
    const { handler, calls } = counting(briefingServer(body), "prompts/get");
    const onElicit = vi.fn(async (params: ElicitRequestParams): Promise<ElicitResult> => {
      const message = messageOf(params);
      if (message === "Who is the briefing on pricing for?") return { action: "accept", content: { audience: "executives" } };
      expect(message).toBe("How many words?");
      return { action: "accept", content: { words: 200 } };
    });
    const client = await Client.connect(handler, { onElicit });
    const result = await client.getPrompt("briefing", { topic: "pricing" });
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Brief executives on pricing in 200 words." } }]);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.inputResponses).toBeUndefined();
    expect(Object.keys(calls[1]!.inputResponses ?? {}).sort()).toEqual(["audience", "length"]);
    expect(onElicit).toHaveBeenCalledTimes(2);
    expect(body).toHaveBeenCalledTimes(1);
  });

  it("hands declined and cancelled outcomes to the prompt body", async () => {
    const body = vi.fn();
    const client = await Client.connect(briefingServer(body), {
      onElicit: async (params) => (messageOf(params).startsWith("Who") ? { action: "decline" } : { action: "cancel" }),
    });
    const result = await client.getPrompt("briefing", { topic: "pricing" });
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Brief everyone on pricing in 100 words." } }]);
    expect(body.mock.calls[0]![1]).toEqual({ audience: { action: "decline" }, length: { action: "cancel" } });
  });

  it("checks required arguments before asking anything", async () => {
    const onElicit = vi.fn(async (): Promise<ElicitResult> => ({ action: "cancel" }));
    const client = await Client.connect(briefingServer(), { onElicit });
    const error = await client.getPrompt("briefing", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain("topic");
    expect(onElicit).not.toHaveBeenCalled();
  });

  it("keeps the state sealed and re-asks when an argument changes the question", async () => {
    const client = await Client.connect(briefingServer(), { onElicit: async () => ({ action: "cancel" }) });
    const first = (await client.session.getPrompt("briefing", { topic: "pricing" }, { allowInputRequired: true })) as InputRequiredResult;
    expect(isInputRequired(first)).toBe(true);
    expect(first.requestState!.startsWith("v1.")).toBe(true);
    expect(first.requestState).not.toContain("audience");
    expect(first.inputRequests?.audience).toMatchObject({ method: "elicitation/create", params: { message: "Who is the briefing on pricing for?" } });
  });

  it("a token minted for a prompt is refused for another prompt, other arguments and a tool of the same name", async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const client = await Client.connect(briefingServer(vi.fn(), vi.fn(), logger), { onElicit: async () => ({ action: "cancel" }) });
    const first = (await client.session.getPrompt("briefing", { topic: "pricing" }, { allowInputRequired: true })) as InputRequiredResult;
    const retry = {
      allowInputRequired: true as const,
      requestState: first.requestState!,
      inputResponses: { audience: { action: "accept" as const, content: { audience: "engineers" } } },
    };
    // The genuine retry is accepted.
    const genuine = await client.session.getPrompt("briefing", { topic: "pricing" }, retry);
    expect(Object.keys((genuine as InputRequiredResult).inputRequests ?? {})).toEqual(["length"]);

    const attempts = [
      client.session.getPrompt("other", { topic: "pricing" }, retry),
      client.session.getPrompt("briefing", { topic: "salaries" }, retry),
      client.session.getPrompt("briefing", {}, retry),
      client.session.callTool("briefing", { topic: "pricing" }, retry),
      client.session.readResource("report://q1", retry),
    ];
    for (const attempt of attempts) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject(FIXED_REJECTION);
    }
    // The wire says only the fixed text; the real reasons go to the server's logger.
    const reasons = logger.warn.mock.calls.map(([message]) => String(message)).join("\n");
    expect(reasons).toMatch(/target_mismatch/);
    expect(reasons).toMatch(/arguments_mismatch/);
    expect(reasons).toMatch(/method_mismatch/);
  });

  it("a question the client has no capability for is a -32021", async () => {
    const server = new McpServer({ name: "prompt-sampler", version: "1.0.0" });
    server.prompt(
      "summary",
      { needs: (need) => need.add("draft", () => sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })) },
      () => [],
    );
    const client = await Client.connect(server, { onElicit: async () => ({ action: "cancel" }) });
    const error = await client.getPrompt("summary").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32021);
  });

  it("a prompt with needs whose body returns an InputRequiredResult is a type error and a -32603 at run time", async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const server = new McpServer({ name: "prompt-mixed", version: "1.0.0" }, { logger });
    // @ts-expect-error a prompt with needs may not return an InputRequiredResult
    server.prompt("mixed", { needs: (need) => need.add("n", () => 1) }, () => ({ resultType: "input_required" as const, requestState: "x" }));
    const client = await Client.connect(server, {});
    const error = await client.getPrompt("mixed").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
    // The author learns which prompt broke the rule, and how to fix it.
    expect(String(logger.error.mock.calls[0]?.[0])).toMatch(/Prompt "mixed" declares dependencies.*one form/);
  });

  it("refuses a malformed needs at registration, naming the prompt", () => {
    const server = new McpServer({ name: "prompt-bad", version: "1.0.0" });
    expect(() => server.prompt("bad", { needs: (() => 42) as never }, () => [])).toThrow(/McpServer\.prompt\("bad"\): needs must be/);
    expect(() => server.prompt("bad2", { needs: needs() }, 5 as never)).toThrow(TypeError);
  });

  it("lists a prompt with needs without leaking the declaration", async () => {
    const client = await Client.connect(briefingServer(), {});
    const { prompts } = await client.listPrompts();
    expect(prompts[0]).toEqual({ name: "briefing", description: "Draft a briefing", arguments: [{ name: "topic", required: true }] });
  });
});

describe("declared dependencies on resource templates", () => {
  it("asks once and reads with the answer", async () => {
    const read = vi.fn();
    const { handler, calls } = counting(briefingServer(vi.fn(), read), "resources/read");
    const onElicit = vi.fn(async (params: ElicitRequestParams): Promise<ElicitResult> => {
      expect(messageOf(params)).toBe("Which format for q3?");
      return { action: "accept", content: { format: "csv" } };
    });
    const client = await Client.connect(handler, { onElicit });
    const result = await client.readResource("report://q3");
    expect(result.contents).toEqual([{ uri: "report://q3", mimeType: "text/plain", text: "report q3 as csv" }]);
    expect(calls).toHaveLength(2);
    expect(Object.keys(calls[1]!.inputResponses ?? {})).toEqual(["format"]);
    expect(onElicit).toHaveBeenCalledTimes(1);
    expect(read).toHaveBeenCalledTimes(1);
    expect(read).toHaveBeenCalledWith("report://q3", { quarter: "q3" }, { action: "accept", content: { format: "csv" } });
  });

  it("hands a declined or cancelled answer to the body", async () => {
    for (const action of ["decline", "cancel"] as const) {
      const client = await Client.connect(briefingServer(), { onElicit: async () => ({ action }) });
      const result = await client.readResource("report://q2");
      expect(result.contents).toEqual([{ uri: "report://q2", mimeType: "text/plain", text: `report q2 as ${action}` }]);
    }
  });

  it("a token minted for one URI is refused for another URI of the same template and for a prompt", async () => {
    const client = await Client.connect(briefingServer(), { onElicit: async () => ({ action: "cancel" }) });
    const first = (await client.session.readResource("report://q1", { allowInputRequired: true })) as InputRequiredResult;
    const retry = {
      allowInputRequired: true as const,
      requestState: first.requestState!,
      inputResponses: { format: { action: "accept" as const, content: { format: "json" } } },
    };
    for (const attempt of [client.session.readResource("report://q4", retry), client.session.getPrompt("briefing", { topic: "q1" }, retry)]) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toMatchObject(FIXED_REJECTION);
    }
    const genuine = await client.session.readResource("report://q1", retry);
    expect(genuine).toMatchObject({ contents: [{ text: "report q1 as json" }] });
  });

  it("works with a UriTemplate instance too", async () => {
    const server = new McpServer({ name: "template-instance", version: "1.0.0" });
    server.resource(
      new UriTemplate("notes://{id}"),
      { needs: needs<Record<string, string | string[]>>().add("format", () => elicit({ message: "Format?", schema: formatForm })) },
      (_uri, { id }, { format }) => `${String(id)}:${format.action}`,
    );
    const client = await Client.connect(server, { onElicit: async () => ({ action: "decline" }) });
    expect((await client.readResource("notes://7")).contents).toEqual([{ uri: "notes://7", text: "7:decline" }]);
  });

  it("lists a template with needs without leaking the declaration", async () => {
    const client = await Client.connect(briefingServer(), {});
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      { uriTemplate: "report://{quarter}", name: "report://{quarter}", description: "A quarterly report", mimeType: "text/plain" },
    ]);
  });

  it("a template with needs whose body returns an InputRequiredResult is a -32603 naming the template", async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const server = new McpServer({ name: "template-mixed", version: "1.0.0" }, { logger });
    // @ts-expect-error a template with needs may not return an InputRequiredResult
    server.resource("mixed://{id}", { needs: (need) => need.add("n", () => 1) }, () => ({ resultType: "input_required" as const, requestState: "x" }));
    const client = await Client.connect(server, {});
    const error = await client.readResource("mixed://1").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32603 });
    expect(String(logger.error.mock.calls[0]?.[0])).toMatch(/Resource template "mixed:\/\/\{id\}" declares dependencies/);
  });

  it("a static resource cannot declare needs: TypeError telling to use a template", () => {
    const server = new McpServer({ name: "static-needs", version: "1.0.0" });
    const register = () =>
      // @ts-expect-error a static resource takes no needs
      server.resource("config://app", { needs: (need) => need.add("x", () => 1) }, () => "x");
    expect(register).toThrow(TypeError);
    expect(register).toThrow(/static resource cannot declare needs.*resource template/);
  });
});
