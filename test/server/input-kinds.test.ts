// Input-request kinds as the server reads them from the generated tables: any kind through inputRequired and through
// the generic `ask` need, over MRTR and over a 2025 session's back-channel; -32021 computed from the kind table of the
// request's revision, naming the Client option that answers the kind; answers checked against the kind's result type,
// a misfit asked once more, then -32602.
import { describe, expect, it } from "vitest";
import { McpError, McpServer, Server, ask, inputRequired } from "mcp-roundtrip/server";
import { pair, recordingLogger } from "./helpers.js";
import { rawSession } from "./raw-legacy-session.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const MESSAGES = [{ role: "user" as const, content: { type: "text" as const, text: "Name it" } }];

/** One tool per kind, each asking through `ask` and reporting what its handler received. */
function asking(): McpServer {
  const server = new McpServer({ name: "kinds", version: "1.0.0" }, { logger: recordingLogger() });
  const report = (value: unknown) => text(JSON.stringify(value));
  server.tool(
    "confirm",
    { needs: (need) => need.add("ok", () => ask("elicitation/create", { message: "Delete it?", requestedSchema: { type: "object", properties: {} } })) },
    (_a, { ok }) => report(ok),
  );
  server.tool(
    "url",
    { needs: (need) => need.add("go", () => ask("elicitation/create", { mode: "url", message: "Sign in", url: "https://example.com/in" })) },
    (_a, { go }) => report(go),
  );
  server.tool("sample", { needs: (need) => need.add("name", () => ask("sampling/createMessage", { messages: MESSAGES, maxTokens: 5 })) }, (_a, { name }) =>
    report(name),
  );
  server.tool(
    "sample-tools",
    {
      needs: (need) =>
        need.add("name", () => ask("sampling/createMessage", { messages: MESSAGES, maxTokens: 5, tools: [{ name: "t", inputSchema: { type: "object" } }] })),
    },
    (_a, { name }) => report(name),
  );
  server.tool(
    "sample-context",
    { needs: (need) => need.add("name", () => ask("sampling/createMessage", { messages: MESSAGES, maxTokens: 5, includeContext: "thisServer" })) },
    (_a, { name }) => report(name),
  );
  server.tool("roots", { needs: (need) => need.add("roots", () => ask("roots/list")) }, (_a, { roots }) => report(roots));
  return server;
}

const ALL = { elicitation: { form: {}, url: {} }, sampling: { tools: {}, context: {} }, roots: {} };

describe("ask(method, params): a declared need of any kind", () => {
  it.each([
    ["confirm", "ok", { action: "accept", content: {} }],
    ["url", "go", { action: "decline" }],
    ["sample", "name", { role: "assistant", model: "m", content: { type: "text", text: "Zed" } }],
    ["roots", "roots", { roots: [{ uri: "file:///work" }] }],
  ])("%s: asks in one round and hands the handler the client's result", async (tool, key, answer) => {
    const client = pair(asking(), ALL);
    const first = await client.result("tools/call", { name: tool, arguments: {} });
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { [key]: { method: expect.any(String) } } });
    const done = await client.result("tools/call", {
      name: tool,
      arguments: {},
      inputResponses: { [key]: { ...answer, resultType: "complete" } },
      requestState: first.requestState,
    });
    expect(done).toMatchObject({ resultType: "complete", content: [{ type: "text", text: JSON.stringify(answer) }] });
  });

  it.each([
    ["confirm", {}, { elicitation: { form: {} } }, "onElicit"],
    ["confirm", { elicitation: { url: {} } }, { elicitation: { form: {} } }, "onElicit"],
    ["url", { elicitation: {} }, { elicitation: { url: {} } }, "onElicit"],
    ["sample", { elicitation: {} }, { sampling: {} }, "onSample"],
    ["sample-tools", { sampling: {} }, { sampling: { tools: {} } }, "onSample"],
    ["sample-context", { sampling: { tools: {} } }, { sampling: { context: {} } }, "onSample"],
    ["roots", { sampling: {} }, { roots: {} }, "onListRoots"],
  ])("%s with %j declared: -32021 naming the missing capability and the Client option", async (tool, declared, required, option) => {
    const error = await pair(asking(), declared).error("tools/call", { name: tool, arguments: {} });
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: required } });
    expect(error.message).toContain(option);
  });

  it("a misfit answer is asked for once more (its message saying why), a second misfit ends with -32602", async () => {
    const client = pair(asking(), ALL);
    const first = await client.result("tools/call", { name: "confirm", arguments: {} });
    // A valid InputResponse on the wire, but the answer of another kind: not an ElicitResult.
    const bad = { roots: [] };
    const again = await client.result("tools/call", { name: "confirm", arguments: {}, inputResponses: { ok: bad }, requestState: first.requestState });
    expect(again).toMatchObject({
      resultType: "input_required",
      inputRequests: { ok: { params: { message: expect.stringContaining("Your previous answer was not accepted") } } },
    });
    const error = await client.error("tools/call", { name: "confirm", arguments: {}, inputResponses: { ok: bad }, requestState: again.requestState });
    expect(error).toMatchObject({ code: -32602, data: { reason: "invalid_input_response", inputKey: "ok" } });
  });

  it("a sampling answer that does not fit CreateMessageResult is asked for again, unchanged (sampling has no message)", async () => {
    const client = pair(asking(), ALL);
    const first = await client.result("tools/call", { name: "sample", arguments: {} });
    const again = await client.result("tools/call", {
      name: "sample",
      arguments: {},
      inputResponses: { name: { action: "accept" } },
      requestState: first.requestState,
    });
    expect(again).toMatchObject({ resultType: "input_required", inputRequests: { name: { method: "sampling/createMessage", params: { maxTokens: 5 } } } });
  });

  it("refuses a method that is no input-request kind, and params that do not fit the kind, naming the path", () => {
    expect(() => ask("tools/call" as never, {} as never)).toThrow(/not an input-request kind.*elicitation\/create/);
    expect(() => ask("sampling/createMessage", { messages: MESSAGES } as never)).toThrow(/maxTokens/);
  });

  it("asks a 2025 session over its back-channel, checked against the 2025 result type, and refuses what it did not declare", async () => {
    const raw = rawSession(asking(), (request) => (request.method === "roots/list" ? { roots: [{ uri: "file:///w" }] } : { action: "accept", content: {} }));
    await raw.initialize({ elicitation: {}, roots: {} });
    expect(await raw.request("tools/call", { name: "roots", arguments: {} })).toMatchObject({ result: text(JSON.stringify({ roots: [{ uri: "file:///w" }] })) });
    expect(await raw.request("tools/call", { name: "confirm", arguments: {} })).toMatchObject({ result: text(JSON.stringify({ action: "accept", content: {} })) });
    expect(raw.asked().map((request) => request.method)).toEqual(["roots/list", "elicitation/create"]);
    const refused = await raw.request("tools/call", { name: "sample", arguments: {} });
    expect(refused).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } } });
  });
});

describe("inputRequired with any kind", () => {
  const server = (inputRequests: Record<string, unknown>) =>
    new Server({ name: "t", version: "1" }, { onCallTool: () => inputRequired({ inputRequests: inputRequests as never }) });

  it.each([
    ["form elicitation", { method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } } }, { elicitation: {} }],
    ["sampling", { method: "sampling/createMessage", params: { messages: MESSAGES, maxTokens: 5 } }, { sampling: {} }],
    ["roots", { method: "roots/list" }, { roots: {} }],
  ])("sends a %s request to a client that declared it, refuses one that did not", async (_label, request, declared) => {
    expect(await pair(server({ q: request }), declared).result("tools/call", { name: "t" })).toMatchObject({
      resultType: "input_required",
      inputRequests: { q: request },
    });
    const error = await pair(server({ q: request }), {}).error("tools/call", { name: "t" });
    expect(error.code).toBe(-32021);
    expect(error.message).toMatch(/onElicit|onSample|onListRoots/);
  });

  it("an McpError from the engine is the same class the server exports", () => {
    expect(new McpError(-32021, "x")).toBeInstanceOf(Error);
  });
});
