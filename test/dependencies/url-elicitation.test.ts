import { describe, expect, it, vi } from "vitest";
import { Client, McpError, type ElicitRequestParams, type ElicitResult } from "mcp-roundtrip/client";
import { McpServer, elicit, elicitUrl, evaluateNeeds, needs, type JsonRpcResponse } from "mcp-roundtrip/server";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";

const BOTH_MODES = { elicitation: { form: {}, url: {} } };
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const yesNo = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;

/** Counts the tools/call requests that reach the server, so tests can see the rounds. */
function counting(server: MessageHandler) {
  const calls: Array<{ inputResponses?: Record<string, unknown> }> = [];
  const handler: MessageHandler = {
    handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
      const m = message as { method?: string; params?: { inputResponses?: Record<string, unknown> } };
      if (m.method === "tools/call") calls.push({ inputResponses: m.params?.inputResponses });
      return server.handle(message, context);
    },
  };
  return { handler, calls };
}

/** A tool that sends the user to a connect page for their account, then asks whether to sync now. */
function connector(body = vi.fn(), urlFor = (account: string) => `https://app.example.com/connect?account=${account}`) {
  const server = new McpServer({ name: "connector-e2e", version: "1.0.0" });
  server.tool(
    "connect",
    {
      inputSchema: { type: "object", properties: { account: { type: "string" } }, required: ["account"] },
      needs: (need) =>
        need
          .add("link", (args) => elicitUrl({ message: "Connect your account to continue.", url: urlFor(String(args.account)) }))
          .add("sync", (_args, { link }) => (link.action === "accept" ? elicit({ message: "Sync now?", schema: yesNo }) : null)),
    },
    (args, values) => {
      body(args, values);
      return text(`link: ${values.link.action}`);
    },
  );
  return server;
}

describe("URL-mode elicitation as a declared dependency", () => {
  it("asks in one round with mode url, message and url, and runs with the accept answer", async () => {
    const body = vi.fn();
    const server = new McpServer({ name: "url-e2e", version: "1.0.0" });
    server.tool(
      "link",
      { needs: (need) => need.add("link", () => elicitUrl({ message: "Sign in to Example.", url: "https://app.example.com/connect?s=1" })) },
      (_args, { link }) => {
        body(link);
        return text(`link: ${link.action}`);
      },
    );
    const { handler, calls } = counting(server);
    const onElicit = vi.fn(async (_params: ElicitRequestParams): Promise<ElicitResult> => ({ action: "accept" }));
    const client = await Client.connect(handler, { onElicit, capabilities: BOTH_MODES });
    const result = await client.callTool("link", {});
    expect(result.content).toEqual([{ type: "text", text: "link: accept" }]);
    expect(calls).toHaveLength(2);
    expect(onElicit).toHaveBeenCalledTimes(1);
    // Exactly the 2026-07-28 URL params: the revision removed elicitationId, so none is sent.
    expect(onElicit.mock.calls[0]![0]).toEqual({ mode: "url", message: "Sign in to Example.", url: "https://app.example.com/connect?s=1" });
    expect(body).toHaveBeenCalledWith({ action: "accept" });
  });

  it("drops content a client sends with its answer: nothing from the client reaches the handler in URL mode", async () => {
    const body = vi.fn();
    const client = await Client.connect(connector(body), {
      onElicit: async (params: ElicitRequestParams) =>
        params.mode === "url" ? ({ action: "accept", content: { token: "leaked" } } as ElicitResult) : { action: "accept", content: { yes: false } },
      capabilities: BOTH_MODES,
    });
    await client.callTool("connect", { account: "ada" });
    expect(body.mock.calls[0]![1].link).toEqual({ action: "accept" });
  });

  it("keeps a decline across later rounds without asking again", async () => {
    const body = vi.fn();
    const { handler, calls } = counting(connector(body));
    const onElicit = vi.fn(async (): Promise<ElicitResult> => ({ action: "decline" }));
    const client = await Client.connect(handler, { onElicit, capabilities: BOTH_MODES });
    const result = await client.callTool("connect", { account: "ada" });
    expect(result.content).toEqual([{ type: "text", text: "link: decline" }]);
    expect(onElicit).toHaveBeenCalledTimes(1);
    expect(body.mock.calls[0]![1]).toEqual({ link: { action: "decline" }, sync: null });
    expect(calls).toHaveLength(2);
  });

  it("a decline kept in the state is not asked again when a later question takes another round", async () => {
    const declaration = needs<{ account: string }>()
      .add("link", () => elicitUrl({ message: "Connect.", url: "https://app.example.com/connect" }))
      .add("sync", (_args, { link }) => elicit({ message: `Sync (${link.action})?`, schema: yesNo }));
    const caps = { clientCapabilities: BOTH_MODES };
    const first = await evaluateNeeds(declaration, { account: "ada" }, caps);
    if (first.status !== "input_required") throw new Error("expected questions");
    expect(Object.keys(first.inputRequests)).toEqual(["link"]);
    const second = await evaluateNeeds(
      declaration,
      { account: "ada" },
      {
        ...caps,
        requestState: first.requestState,
        inputResponses: { link: { action: "decline" } },
      },
    );
    if (second.status !== "input_required") throw new Error("expected the sync question");
    expect(Object.keys(second.inputRequests)).toEqual(["sync"]);
    const third = await evaluateNeeds(
      declaration,
      { account: "ada" },
      {
        ...caps,
        requestState: second.requestState,
        inputResponses: { sync: { action: "accept", content: { yes: true } } },
      },
    );
    expect(third).toEqual({ status: "ready", values: { link: { action: "decline" }, sync: { action: "accept", content: { yes: true } } } });
  });

  it("a client without elicitation.url gets -32021 naming it, even when it declares form mode", async () => {
    for (const capabilities of [undefined, { elicitation: { form: {} } }, { elicitation: {} }]) {
      const client = await Client.connect(connector(), { onElicit: async () => ({ action: "cancel" }), ...(capabilities ? { capabilities } : {}) });
      const error = await client.callTool("connect", { account: "ada" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32021);
      expect((error as McpError).data).toMatchObject({ requiredCapabilities: { elicitation: { url: {} } } });
    }
  });

  it("a URL-only client cannot answer a form question: both missing modes are named together", async () => {
    const declaration = needs()
      .add("form", () => elicit({ message: "Sync?", schema: yesNo }))
      .add("link", () => elicitUrl({ message: "Connect.", url: "https://app.example.com/connect" }));
    const none = await evaluateNeeds(declaration, {}, { clientCapabilities: {} }).catch((e: unknown) => e);
    expect((none as McpError).data).toEqual({ requiredCapabilities: { elicitation: { form: {}, url: {} } } });
    const urlOnly = await evaluateNeeds(declaration, {}, { clientCapabilities: { elicitation: { url: {} } } }).catch((e: unknown) => e);
    expect((urlOnly as McpError).data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
  });

  it("asks again when the URL changes between rounds, and not when it stays the same", async () => {
    let generation = 1;
    const body = vi.fn();
    const { handler, calls } = counting(connector(body, (account) => `https://app.example.com/connect?account=${account}&v=${generation}`));
    const seen: string[] = [];
    const onElicit = vi.fn(async (params: ElicitRequestParams): Promise<ElicitResult> => {
      if (params.mode !== "url") return { action: "accept", content: { yes: true } };
      seen.push(params.url);
      // The server's link moves on while the user is looking at the first one.
      if (generation === 1) generation = 2;
      return { action: "accept" };
    });
    const client = await Client.connect(handler, { onElicit, capabilities: BOTH_MODES });
    const result = await client.callTool("connect", { account: "ada" });
    expect(result.content).toEqual([{ type: "text", text: "link: accept" }]);
    expect(seen).toEqual(["https://app.example.com/connect?account=ada&v=1", "https://app.example.com/connect?account=ada&v=2"]);
    // First call; retry with the stale answer (re-asked); retry with the fresh one (sync asked); retry with sync.
    expect(calls).toHaveLength(4);
    expect(Object.keys(calls[3]!.inputResponses ?? {})).toEqual(["sync"]);
  });

  it("the same message and URL digest the same in every round; a changed message or URL digests differently", () => {
    const a = elicitUrl({ message: "Connect.", url: "https://app.example.com/connect" });
    expect(elicitUrl({ message: "Connect.", url: "https://app.example.com/connect" }).digest).toBe(a.digest);
    expect(elicitUrl({ message: "Connect!", url: "https://app.example.com/connect" }).digest).not.toBe(a.digest);
    expect(elicitUrl({ message: "Connect.", url: "https://app.example.com/connect?x" }).digest).not.toBe(a.digest);
    // Not the same question as a form elicitation that happens to share the message.
    expect(elicit({ message: "Connect.", schema: yesNo }).digest).not.toBe(a.digest);
  });

  it("refuses a URL that is not an absolute http(s) URL, or that carries credentials, with a TypeError naming the problem", () => {
    expect(() => elicitUrl({ message: "Go", url: "javascript:alert(1)" })).toThrow(/https: .*"javascript:"/);
    expect(() => elicitUrl({ message: "Go", url: "ftp://files.example.com/x" })).toThrow(TypeError);
    expect(() => elicitUrl({ message: "Go", url: "/connect" })).toThrow(/absolute http/);
    expect(() => elicitUrl({ message: "Go", url: "" })).toThrow(TypeError);
    expect(() => elicitUrl({ message: "Go", url: "https://user:secret@app.example.com/" })).toThrow(/credentials/);
    expect(() => elicitUrl({ message: " ", url: "https://app.example.com/" })).toThrow(/message/);
    expect(() => elicitUrl({ message: "Go", url: "http://localhost:3000/connect" })).not.toThrow();
  });

  it("a resolver that renders a bad URL fails the call with -32603, without echoing the URL to the client", async () => {
    const server = new McpServer({ name: "bad-url-e2e", version: "1.0.0" });
    server.tool("bad", { needs: (need) => need.add("link", () => elicitUrl({ message: "Go", url: "file:///etc/passwd" })) }, () => text("never"));
    const client = await Client.connect(server, { onElicit: async () => ({ action: "accept" }), capabilities: BOTH_MODES });
    const error = await client.callTool("bad", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
    expect((error as McpError).message).not.toContain("/etc/passwd");
  });
});
