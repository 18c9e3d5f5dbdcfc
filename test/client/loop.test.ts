import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, InputRequestFailed, InputRequiredRoundsExceeded, InvalidServerResult, McpError, MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";
import { askRegion, deferred, fakeServer, text } from "./fake-server.js";

const accept = (content: Record<string, string>) => ({ action: "accept" as const, content });

describe("automatic loop", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("returns a complete result from one request, and treats a missing resultType as complete", async () => {
    const server = fakeServer(() => ({ content: [{ type: "text", text: "done" }] }));
    const client = await Client.connect(server);
    const result = await client.callTool("plain", { a: 1 });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(result.resultType).toBe("complete");
    expect(server.calls).toHaveLength(1);
  });

  it("rejects an unknown resultType", async () => {
    const server = fakeServer(() => ({ resultType: "task_started", content: [] }));
    const client = await Client.connect(server);
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidServerResult);
    expect((error as Error).message).toMatch(/unknown resultType "task_started"/);
  });

  it("answers a round and retries the same method, name and arguments with answers under the same keys", async () => {
    const server = fakeServer((params, _request, index) =>
      index === 0
        ? { resultType: "input_required", inputRequests: { region: askRegion }, requestState: "provision-v1" }
        : text(`Provisioned ${(params.arguments as { name: string }).name} in ${(params.inputResponses as any).region.content.region}.`),
    );
    const seen: unknown[] = [];
    const client = await Client.connect(server, {
      onElicit: (params, context) => {
        seen.push({ params, key: context.key, method: context.method, aborted: context.signal.aborted });
        return accept({ region: "eu-west-1" });
      },
    });
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "Provisioned orders in eu-west-1." }]);
    expect(seen).toEqual([{ params: askRegion.params, key: "region", method: "elicitation/create", aborted: false }]);
    const [first, second] = server.calls;
    expect(second!.method).toBe(first!.method);
    expect(second!.params!.name).toBe("provision");
    expect(second!.params!.arguments).toEqual({ name: "orders" });
    expect(second!.params!.inputResponses).toEqual({ region: accept({ region: "eu-west-1" }) });
    expect(second!.params!.requestState).toBe("provision-v1");
    expect("inputResponses" in first!.params!).toBe(false);
    expect("requestState" in first!.params!).toBe(false);
  });

  it("gives each callback a context of key, method and a signal made on first read", async () => {
    const server = fakeServer((_p, _r, index) => (index === 0 ? { resultType: "input_required", inputRequests: { a: askRegion, b: askRegion } } : text("ok")));
    const contexts: Record<string, unknown>[] = [];
    const client = await Client.connect(server, {
      onElicit: (_params, context) => {
        contexts.push(context as unknown as Record<string, unknown>);
        return accept({ region: "x" });
      },
    });
    await client.callTool("t");
    expect(contexts.map((context) => Object.keys(context))).toEqual([
      ["key", "method", "signal"],
      ["key", "method", "signal"],
    ]);
    const [first, second] = contexts as unknown as { key: string; method: string; signal: AbortSignal }[];
    expect([first!.key, second!.key]).toEqual(["a", "b"]);
    // One round, one signal: both callbacks see the same one, and reading it again gives it back.
    expect(first!.signal).toBeInstanceOf(AbortSignal);
    expect(first!.signal).toBe(second!.signal);
    expect(first!.signal.aborted).toBe(false);
  });

  it("uses a new JSON-RPC id for every round", async () => {
    const server = fakeServer((_p, _r, index) => (index < 3 ? { resultType: "input_required", inputRequests: { region: askRegion } } : text("ok")));
    const client = await Client.connect(server, { onElicit: () => accept({ region: "x" }) });
    await client.callTool("t");
    const ids = server.received.map((request) => request.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
  });

  it("never sends requestState when the server gave none", async () => {
    const server = fakeServer((_p, _r, index) => (index === 0 ? { resultType: "input_required", inputRequests: { region: askRegion } } : text("ok")));
    const client = await Client.connect(server, { onElicit: () => accept({ region: "x" }) });
    await client.callTool("t");
    expect("requestState" in server.calls[1]!.params!).toBe(false);
  });

  it("echoes requestState byte for byte, whatever it contains", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 200 }), async (state) => {
        const server = fakeServer((_p, _r, index) =>
          index === 0 ? { resultType: "input_required", inputRequests: { region: askRegion }, requestState: state } : text("ok"),
        );
        const client = await Client.connect(server, { onElicit: () => accept({ region: "x" }) });
        await client.callTool("t", { k: "v" });
        const echoed = server.calls[1]!.params!.requestState as string;
        expect(Buffer.from(echoed, "utf16le").equals(Buffer.from(state, "utf16le"))).toBe(true);
        expect(echoed.length).toBe(state.length);
      }),
      { numRuns: 60 },
    );
  });

  it("sends the state of the latest round, not an earlier one", async () => {
    const server = fakeServer((_p, _r, index) =>
      index < 2 ? { resultType: "input_required", inputRequests: { [`q${index}`]: askRegion }, requestState: `state-${index}` } : text("ok"),
    );
    const client = await Client.connect(server, { onElicit: () => accept({ region: "x" }) });
    await client.callTool("t");
    expect(server.calls.map((call) => call.params!.requestState)).toEqual([undefined, "state-0", "state-1"]);
    expect(Object.keys(server.calls[2]!.params!.inputResponses as object)).toEqual(["q1"]);
  });

  it("fulfils the requests of one round concurrently", async () => {
    const started: string[] = [];
    const gates = { a: deferred(), b: deferred() };
    const server = fakeServer((_p, _r, index) =>
      index === 0
        ? {
            resultType: "input_required",
            inputRequests: {
              a: askRegion,
              b: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } },
              c: { method: "roots/list" },
            },
          }
        : text("ok"),
    );
    const client = await Client.connect(server, {
      onElicit: async (_params, { key }) => {
        started.push(key!);
        await gates.a.promise;
        return accept({ region: "x" });
      },
      onSample: async (_params, { key }) => {
        started.push(key!);
        await gates.b.promise;
        return { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
      },
      onListRoots: (_params, { key }) => {
        started.push(key!);
        return { roots: [{ uri: "file:///w" }] };
      },
    });
    const call = client.callTool("t");
    await vi.waitFor(() => expect(started).toHaveLength(3));
    expect(server.calls).toHaveLength(1);
    gates.b.resolve();
    gates.a.resolve();
    await call;
    expect(server.calls[1]!.params!.inputResponses).toEqual({
      a: accept({ region: "x" }),
      b: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" },
      c: { roots: [{ uri: "file:///w" }] },
    });
  });

  it("aborts a round's siblings when one callback throws, and sends no retry", async () => {
    let siblingSignal: AbortSignal | undefined;
    const server = fakeServer(() => ({
      resultType: "input_required",
      inputRequests: { slow: askRegion, broken: { method: "roots/list" } },
      requestState: "s",
    }));
    const client = await Client.connect(server, {
      onElicit: (_params, { signal }) => {
        siblingSignal = signal;
        return new Promise(() => {});
      },
      onListRoots: async () => {
        throw new Error("disk unavailable");
      },
    });
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequestFailed);
    expect(error).toMatchObject({ key: "broken", method: "roots/list" });
    expect((error as Error).message).toMatch(/disk unavailable/);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(siblingSignal?.aborted).toBe(true);
    expect(server.calls).toHaveLength(1);
  });

  it("fails a round with a missing callback before running any callback", async () => {
    const elicit = vi.fn(() => accept({ region: "x" }));
    const server = fakeServer(() => ({
      resultType: "input_required",
      inputRequests: { region: askRegion, llm: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } },
    }));
    const client = await Client.connect(server, { onElicit: elicit });
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequestFailed);
    expect(error).toMatchObject({ key: "llm", method: "sampling/createMessage" });
    expect((error as Error).message).toMatch(/onSample/);
    expect(elicit).not.toHaveBeenCalled();
    expect(server.calls).toHaveLength(1);
  });

  it("rejects a callback answer that is not an object", async () => {
    const server = fakeServer(() => ({ resultType: "input_required", inputRequests: { region: askRegion } }));
    const client = await Client.connect(server, { onElicit: () => "eu-west-1" as never });
    await expect(client.callTool("t")).rejects.toThrow(/returned string/);
  });

  it("throws InputRequiredRoundsExceeded past inputRequiredMaxRounds, carrying the last result", async () => {
    const server = fakeServer((_p, _r, index) => ({
      resultType: "input_required",
      inputRequests: { region: askRegion },
      requestState: `round-${index + 1}`,
    }));
    const client = await Client.connect(server, { onElicit: () => accept({ region: "x" }), inputRequiredMaxRounds: 3 });
    const error = (await client.callTool("t", { n: 1 }).catch((e: unknown) => e)) as InputRequiredRoundsExceeded;
    expect(error).toBeInstanceOf(InputRequiredRoundsExceeded);
    expect(error.rounds).toBe(3);
    expect(server.calls).toHaveLength(4);
    expect(error.lastResult.requestState).toBe("round-4");
    expect(error.pending.toJSON()).toMatchObject({ method: "tools/call", name: "t", arguments: { n: 1 }, requestState: "round-4" });
  });

  it("allows ten rounds by default and fails on the eleventh", async () => {
    const needs = (rounds: number) =>
      fakeServer((_p, _r, index) => (index < rounds ? { resultType: "input_required", inputRequests: { q: askRegion } } : text("ok")));
    const ten = needs(10);
    const clientTen = await Client.connect(ten, { onElicit: () => accept({ region: "x" }) });
    await expect(clientTen.callTool("t")).resolves.toMatchObject({ content: [{ text: "ok" }] });
    expect(ten.calls).toHaveLength(11);
    const eleven = needs(11);
    const clientEleven = await Client.connect(eleven, { onElicit: () => accept({ region: "x" }) });
    await expect(clientEleven.callTool("t")).rejects.toBeInstanceOf(InputRequiredRoundsExceeded);
    expect(eleven.calls).toHaveLength(11);
  });

  it("waits 50 ms doubling to 250 ms on state-only rounds, and resets after a round with requests", async () => {
    vi.useFakeTimers();
    const plan = ["state", "state", "state", "state", "state", "ask", "state", "state", "done"];
    const sentAt: number[] = [];
    const server = fakeServer((_p, _r, index) => {
      sentAt.push(Date.now());
      const step = plan[index];
      if (step === "state") return { resultType: "input_required", requestState: `s${index}` };
      if (step === "ask") return { resultType: "input_required", inputRequests: { q: askRegion }, requestState: `s${index}` };
      return text("ok");
    });
    const client = await Client.connect(server, { onElicit: () => accept({ region: "x" }), inputRequiredMaxRounds: 20 });
    const call = client.callTool("poll");
    await vi.runAllTimersAsync();
    await call;
    const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]!);
    expect(gaps).toEqual([50, 100, 200, 250, 250, 0, 50, 100]);
    expect(server.calls[1]!.params!.requestState).toBe("s0");
    expect("inputResponses" in server.calls[1]!.params!).toBe(false);
  });

  it("stops at once when the signal aborts during a callback", async () => {
    const controller = new AbortController();
    let callbackSignal: AbortSignal | undefined;
    const server = fakeServer(() => ({ resultType: "input_required", inputRequests: { region: askRegion } }));
    const client = await Client.connect(server, {
      onElicit: (_params, { signal }) => {
        callbackSignal = signal;
        setTimeout(() => controller.abort(new Error("user gave up")), 1);
        return new Promise(() => {});
      },
    });
    await expect(client.callTool("t", {}, { signal: controller.signal })).rejects.toThrow("user gave up");
    expect(callbackSignal?.aborted).toBe(true);
    expect(server.calls).toHaveLength(1);
  });

  it("stops during a backoff pause when the signal aborts", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const server = fakeServer(() => ({ resultType: "input_required", requestState: "wait" }));
    const client = await Client.connect(server, { inputRequiredMaxRounds: 100 });
    const call = client.callTool("t", {}, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(120);
    const before = server.calls.length;
    controller.abort(new Error("deadline"));
    await vi.runAllTimersAsync();
    expect(await call).toMatchObject({ message: "deadline" });
    expect(server.calls.length).toBe(before);
  });

  it("stops while the server is still answering when the signal aborts", async () => {
    const controller = new AbortController();
    const server = fakeServer(() => new Promise(() => {}));
    const client = await Client.connect(server);
    const call = client.callTool("t", {}, { signal: controller.signal });
    controller.abort(new Error("too slow"));
    await expect(call).rejects.toThrow("too slow");
  });

  it("does not start when the signal is already aborted", async () => {
    const server = fakeServer(() => text("ok"));
    const client = await Client.connect(server);
    await expect(client.callTool("t", {}, { signal: AbortSignal.abort(new Error("nope")) })).rejects.toThrow("nope");
    expect(server.calls).toHaveLength(0);
  });

  it("puts the _meta envelope on every request, with capabilities derived from the callbacks", async () => {
    const server = fakeServer((_p, _r, index) => (index === 0 ? { resultType: "input_required", inputRequests: { region: askRegion } } : text("ok")));
    const client = await Client.connect(server, {
      onElicit: () => accept({ region: "x" }),
      onListRoots: () => ({ roots: [] }),
      clientInfo: { name: "tester", version: "9.9.9" },
    });
    await client.callTool("t", {}, { meta: { progressToken: 7 } });
    for (const request of server.received) {
      expect(request.params!._meta).toMatchObject({
        "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
        "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} }, roots: {} },
        "io.modelcontextprotocol/clientInfo": { name: "tester", version: "9.9.9" },
      });
      expect((request.params!._meta as any)["io.modelcontextprotocol/clientCapabilities"].sampling).toBeUndefined();
    }
    expect(server.calls.every((call) => (call.params!._meta as any).progressToken === 7)).toBe(true);
  });

  it("declares no optional capability without callbacks", async () => {
    const server = fakeServer(() => text("ok"));
    const client = await Client.connect(server);
    await client.callTool("t");
    expect((server.calls[0]!.params!._meta as any)["io.modelcontextprotocol/clientCapabilities"]).toEqual({});
  });

  it("runs the same loop for prompts/get and resources/read", async () => {
    const server = fakeServer((params, request) => {
      if (params.inputResponses === undefined) return { resultType: "input_required", inputRequests: { q: askRegion }, requestState: "st" };
      return request.method === "prompts/get"
        ? { resultType: "complete", messages: [{ role: "user", content: { type: "text", text: "brief" } }] }
        : { resultType: "complete", contents: [{ uri: params.uri, text: "body" }] };
    });
    const client = await Client.connect(server, { onElicit: () => accept({ region: "x" }) });
    const prompt = await client.getPrompt("briefing", { topic: "q3" });
    expect(prompt.messages).toHaveLength(1);
    const resource = await client.readResource("db://orders/schema");
    expect(resource.contents).toEqual([{ uri: "db://orders/schema", text: "body" }]);
    expect(server.calls.map((c) => [c.method, c.params!.requestState])).toEqual([
      ["prompts/get", undefined],
      ["prompts/get", "st"],
      ["resources/read", undefined],
      ["resources/read", "st"],
    ]);
    expect(server.calls[1]!.params!.arguments).toEqual({ topic: "q3" });
    expect(server.calls[3]!.params!.uri).toBe("db://orders/schema");
  });

  it("rejects input_required without inputRequests or requestState", async () => {
    const server = fakeServer(() => ({ resultType: "input_required" }));
    const client = await Client.connect(server);
    await expect(client.callTool("t")).rejects.toThrow(/neither inputRequests nor requestState/);
  });

  it("rejects input_required from a method that may not return it", async () => {
    const server = fakeServer(() => ({ resultType: "input_required", requestState: "x" }));
    const client = await Client.connect(server);
    await expect(client.listTools()).rejects.toBeInstanceOf(InvalidServerResult);
  });

  it("surfaces a JSON-RPC error as McpError", async () => {
    const server = fakeServer(() => ({ error: { code: -32602, message: "Invalid or expired requestState", data: { reason: "invalid_request_state" } } }));
    const client = await Client.connect(server);
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, data: { reason: "invalid_request_state" } });
  });

  it("rejects an unknown input request method as a failed request", async () => {
    const server = fakeServer(() => ({ resultType: "input_required", inputRequests: { x: { method: "tasks/get", params: {} } } }));
    const client = await Client.connect(server, { onElicit: () => accept({}) });
    await expect(client.callTool("t")).rejects.toMatchObject({ name: "InputRequestFailed", method: "tasks/get" });
  });
});
