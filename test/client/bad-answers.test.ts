// A callback's answer that does not fit its request is named and never looped on: our client
// checks it before sending anything, and a server that receives one anyway (a hand-driven
// client.session call, a raw message) asks once more with the reason, then ends with -32602.
import { describe, expect, it } from "vitest";
import {
  type JsonRpcResponse,
  Client,
  InputRequiredRoundsExceeded,
  InputResponseInvalid,
  McpError,
  isInputRequired,
  type InputRequiredResult,
} from "mcp-roundtrip/client";
import { McpServer, elicit, listRoots, sample } from "mcp-roundtrip/server";
import { tap } from "./tap.js";
import { fakeServer } from "./fake-server.js";

const nameForm = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;
const quiet = { warn() {}, error() {} };
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function greeter(logger: object = quiet, logLevel: "warn" | "debug" = "warn") {
  const server = new McpServer({ name: "greeter", version: "1.0.0" }, { logger: logger as typeof quiet, logLevel });
  server.tool(
    "greet",
    { inputSchema: { type: "object" }, needs: (need) => need.add("confirm", () => elicit({ message: "Your name?", schema: nameForm })) },
    (_args, { confirm }) => text(confirm.action === "accept" ? `Hello, ${confirm.content.name}` : "no name"),
  );
  server.tool(
    "summarise",
    {
      inputSchema: { type: "object" },
      needs: (need) => need.add("draft", () => sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })),
    },
    () => text("sampled"),
  );
  server.tool("roots", { inputSchema: { type: "object" }, needs: (need) => need.add("roots", () => listRoots()) }, () => text("rooted"));
  return server;
}

describe("our client checks each answer before sending it", () => {
  it("an onElicit answer that does not fit the form rejects the call with InputResponseInvalid, and nothing is sent for it", async () => {
    const wire = tap(greeter());
    const client = await Client.connect(wire, { onElicit: async () => ({ action: "accept", content: { name: 42 } }) as never });
    const error = (await client.callTool("greet", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
    expect(error).toBeInstanceOf(InputResponseInvalid);
    expect(error.name).toBe("InputResponseInvalid");
    expect(error.message).toBe('onElicit answer for "confirm": /content/name must be a string. Nothing was sent; make the callback\'s answer fit the request.');
    expect(error).toMatchObject({ key: "confirm", method: "elicitation/create", issues: [{ path: "/content/name", message: "must be a string" }] });
    // The first call only: no retry carried the bad answer.
    expect(wire.requests.filter((request) => request.method === "tools/call")).toHaveLength(1);
    expect(wire.requests.some((request) => request.params?.inputResponses !== undefined)).toBe(false);
  });

  it.each([
    ["a missing required field", {}, "/content/name is required"],
    ["a field the form did not ask for", { name: "Ada", extra: 1 }, "/content/extra is not a field of the form"],
  ])("names %s", async (_label, content, named) => {
    const client = await Client.connect(greeter(), { onElicit: async () => ({ action: "accept", content }) as never });
    await expect(client.callTool("greet", {})).rejects.toThrow(named);
  });

  it("an unknown action is named too; decline and a fitting answer go through", async () => {
    const bad = await Client.connect(greeter(), { onElicit: async () => ({ action: "maybe" }) as never });
    await expect(bad.callTool("greet", {})).rejects.toThrow('onElicit answer for "confirm": /action must be "accept", "decline" or "cancel"');
    const declining = await Client.connect(greeter(), { onElicit: async () => ({ action: "decline" }) });
    expect((await declining.callTool("greet", {})).content).toEqual([{ type: "text", text: "no name" }]);
    const fitting = await Client.connect(greeter(), { onElicit: async () => ({ action: "accept", content: { name: "Ada" } }) });
    expect((await fitting.callTool("greet", {})).content).toEqual([{ type: "text", text: "Hello, Ada" }]);
  });

  it("onSample and onListRoots answers are checked against CreateMessageResult and ListRootsResult", async () => {
    const wire = tap(greeter());
    const client = await Client.connect(wire, {
      onSample: async () => ({ role: "assistant", content: { type: "text", text: "x" } }) as never,
      onListRoots: async () => ({ roots: [{ uri: 7 }] }) as never,
    });
    const sampling = (await client.callTool("summarise", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
    expect(sampling).toBeInstanceOf(InputResponseInvalid);
    expect(sampling.message).toMatch(/^onSample answer for "draft": .*model/);
    const roots = (await client.callTool("roots", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
    expect(roots).toBeInstanceOf(InputResponseInvalid);
    expect(roots.issues[0]!.path).toBe("/roots/0/uri");
    expect(wire.requests.some((request) => request.params?.inputResponses !== undefined)).toBe(false);
    const good = await Client.connect(greeter(), {
      onSample: async () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }),
      onListRoots: async () => ({ roots: [{ uri: "file:///work" }] }),
    });
    expect((await good.callTool("summarise", {})).content).toEqual([{ type: "text", text: "sampled" }]);
    expect((await good.callTool("roots", {})).content).toEqual([{ type: "text", text: "rooted" }]);
  });
});

describe("a server that receives a misfit answer anyway", () => {
  it("client.session by hand: asked once more with the reason, then -32602 naming the key and /name, in 2 rounds", async () => {
    const debug: [string, Record<string, unknown> | undefined][] = [];
    const logger = { ...quiet, debug: (message: string, fields?: Record<string, unknown>) => void debug.push([message, fields]) };
    const wire = tap(greeter(logger, "debug"));
    const client = await Client.connect(wire, { capabilities: { elicitation: { form: {} } } });
    const first = (await client.session.callTool("greet", {}, { allowInputRequired: true })) as InputRequiredResult;
    expect(isInputRequired(first)).toBe(true);
    const bad = { confirm: { action: "accept" as const, content: { name: 42 } } };
    const second = (await client.session.callTool(
      "greet",
      {},
      { allowInputRequired: true, inputResponses: bad, requestState: first.requestState },
    )) as InputRequiredResult;
    expect(isInputRequired(second)).toBe(true);
    expect((second.inputRequests!.confirm!.params as { message: string }).message).toBe(
      "Your name? (Your previous answer was not accepted: /content/name must be a string)",
    );
    const error = (await client.session
      .callTool("greet", {}, { allowInputRequired: true, inputResponses: bad, requestState: second.requestState })
      .catch((thrown: unknown) => thrown)) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('The answer for input "confirm" did not fit its request, again after it was asked once more: /content/name must be a string');
    expect(error.data).toEqual({ reason: "invalid_input_response", inputKey: "confirm", issues: [{ path: "/content/name", message: "must be a string" }] });
    expect(wire.requests.filter((request) => request.method === "tools/call")).toHaveLength(3);
    expect(debug.map(([message]) => message)).toEqual([
      'tools/call "greet": round 1: asking "confirm" (not asked yet)',
      'tools/call "greet": round 2: asking "confirm" (the answer did not fit (/content/name must be a string); asked once more)',
      'tools/call "greet": the answer for "confirm" (asked once more in round 2) did not fit again (/content/name must be a string); ending with -32602',
    ]);
    expect(debug[2]![1]).toMatchObject({ method: "tools/call", tool: "greet", round: 2, inputKey: "confirm", decision: "ended", reason: "invalid_input_response" });
  });

  it("a raw JSON-RPC client gets the same: one re-ask, then -32602", async () => {
    const server = greeter();
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const call = async (id: number, extra: Record<string, unknown> = {}) =>
      (await server.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta, name: "greet", arguments: {}, ...extra } })) as JsonRpcResponse & {
        result?: { requestState: string; inputRequests: Record<string, { params: { message: string } }> };
        error?: { code: number; message: string; data: unknown };
      };
    const bad = { confirm: { action: "accept", content: { name: 42 } } };
    const one = await call(1);
    const two = await call(2, { inputResponses: bad, requestState: one.result!.requestState });
    expect(two.result!.inputRequests.confirm!.params.message).toContain("(Your previous answer was not accepted: /content/name must be a string)");
    const three = await call(3, { inputResponses: bad, requestState: two.result!.requestState });
    expect(three.error).toMatchObject({ code: -32602, data: { reason: "invalid_input_response", inputKey: "confirm" } });
    expect(three.error!.message).toContain("/content/name must be a string");
    // A fitting answer to the re-asked question is taken.
    const good = await call(4, { inputResponses: { confirm: { action: "accept", content: { name: "Ada" } } }, requestState: two.result!.requestState });
    expect(good.result).toMatchObject({ content: [{ type: "text", text: "Hello, Ada" }] });
  });
});

describe("running out of rounds says what really happened", () => {
  const ask = (message: string) => ({ method: "elicitation/create", params: { mode: "form", message, requestedSchema: { type: "object", properties: {} } } });

  it("the same question asked again: no advice to raise the limit", async () => {
    const server = fakeServer(() => ({ resultType: "input_required", inputRequests: { ok: ask("Again?") }, requestState: "s" }));
    const client = await Client.connect(server, { inputRequiredMaxRounds: 3, onElicit: async () => ({ action: "accept", content: {} }) });
    const error = (await client.callTool("loop", {}).catch((thrown: unknown) => thrown)) as InputRequiredRoundsExceeded;
    expect(error).toBeInstanceOf(InputRequiredRoundsExceeded);
    expect(error.repeated).toBe(true);
    expect(error.message).toBe(
      'tools/call "loop" still needed input after 3 round(s). The server asked the same questions again, so it did not take the answers: ' +
        "check what your callbacks answer (see lastResult), or drive the rounds yourself with client.session and { allowInputRequired: true }.",
    );
  });

  it("a new question every round: the advice to raise inputRequiredMaxRounds", async () => {
    const server = fakeServer((_params, _request, index) => ({ resultType: "input_required", inputRequests: { ok: ask(`Question ${index}?`) }, requestState: "s" }));
    const client = await Client.connect(server, { inputRequiredMaxRounds: 3, onElicit: async () => ({ action: "accept", content: {} }) });
    const error = (await client.callTool("chain", {}).catch((thrown: unknown) => thrown)) as InputRequiredRoundsExceeded;
    expect(error.repeated).toBe(false);
    expect(error.message).toContain("Every round asked new questions: raise inputRequiredMaxRounds if the server legitimately needs more rounds");
  });
});
