// A `needs` round answered in the turn its request arrived: the evaluation runs as steps (runSteps) that
// wait only for what a resolver or an answer check hands back as a promise.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { McpServer, elicit, evaluateNeeds, needs, runWithDependencies } from "mcp-roundtrip/server";
import { classifyMessage } from "../../runtime/protocol/message.js";
import { runSteps } from "../../runtime/server/dependencies/steps.js";
import { meta } from "../server/helpers.js";

describe("runSteps", () => {
  it("returns at once when nothing is waited for, and throws at once what the steps throw", () => {
    function* plain(): Generator<unknown, number, unknown> {
      const seven = (yield 7) as number; // not a promise: handed straight back
      return seven * 6;
    }
    expect(runSteps(plain())).toBe(42);
    function* broken(): Generator<unknown, number, unknown> {
      yield "not a promise";
      throw new RangeError("bad step");
    }
    expect(() => runSteps(broken())).toThrow(RangeError);
  });

  it("waits for what is yielded, hands its value back, and throws its rejection where it was yielded", async () => {
    const seen: unknown[] = [];
    function* steps(): Generator<unknown, string, unknown> {
      seen.push(yield Promise.resolve("first"));
      try {
        yield Promise.reject(new Error("refused"));
      } catch (error) {
        seen.push((error as Error).message);
      }
      seen.push(yield 7); // not a promise: handed straight back
      return "done";
    }
    const running = runSteps(steps());
    expect(running).toBeInstanceOf(Promise);
    await expect(running).resolves.toBe("done");
    expect(seen).toEqual(["first", "refused", 7]);
  });

  it("rejects with what the steps throw after a wait", async () => {
    function* steps(): Generator<unknown, never, unknown> {
      yield Promise.resolve();
      throw new TypeError("after the wait");
    }
    await expect(runSteps(steps())).rejects.toThrow("after the wait");
  });
});

const form = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as const;

/** A tool whose two questions are asked synchronously or through a promise, as `asyncAt` says. */
function askingServer(asyncAt: ReadonlySet<string> = new Set()) {
  const server = new McpServer({ name: "asker", version: "1" }, { logger: { warn() {}, error() {} } });
  const question = (key: string) => () => {
    const asked = elicit({ message: `${key}?`, schema: form });
    return asyncAt.has(key) ? Promise.resolve(asked) : asked;
  };
  server.tool(
    "both",
    {
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      needs: (need) => need.add("a", question("a")).add("b", question("b")),
    },
    ({ n }: { n: number }, { a, b }) => ({
      content: [{ type: "text", text: `${n}:${a.action === "accept" && a.content.ok}:${b.action === "accept" && b.content.ok}` }],
    }),
  );
  return server;
}

const call = (id: number, params: Record<string, unknown> = {}) =>
  classifyMessage({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { _meta: meta({ elicitation: { form: {} } }), name: "both", arguments: { n: 3 }, ...params },
  });
const yes = { action: "accept", content: { ok: true } };
/** How an HTTP transport hands a message over: answered at once, or by a promise. */
const answer = (server: McpServer, message: ReturnType<typeof call>): unknown => server.handleClassified(message);
const textOf = (answered: unknown) => (answered as { result: { content: { text: string }[] } }).result.content[0]!.text;

describe("a tool with needs over McpServer", () => {
  it("answers both rounds at once when its resolvers answer at once", () => {
    const server = askingServer();
    const first = answer(server, call(1)) as { result: { resultType: string; inputRequests: object; requestState: string } };
    expect(first).not.toBeInstanceOf(Promise);
    expect(first.result.resultType).toBe("input_required");
    expect(Object.keys(first.result.inputRequests)).toEqual(["a", "b"]);
    const second = answer(server, call(2, { requestState: first.result.requestState, inputResponses: { a: yes, b: yes } }));
    expect(second).not.toBeInstanceOf(Promise);
    expect(textOf(second)).toBe("3:true:true");
  });

  it("answers the same, through a promise, whichever resolvers wait (property)", async () => {
    const reference = askingServer();
    const firstOf = (answer: unknown) => (answer as { result: { requestState: string; inputRequests: object } }).result;
    const expected = firstOf(answer(reference, call(1)));
    await fc.assert(
      fc.asyncProperty(fc.subarray(["a", "b"]), async (waiting) => {
        const server = askingServer(new Set(waiting));
        const first = answer(server, call(1));
        expect(first instanceof Promise).toBe(waiting.length > 0);
        const asked = firstOf(await first);
        expect(asked.inputRequests).toEqual(expected.inputRequests);
        const done = await answer(server, call(2, { requestState: asked.requestState, inputResponses: { a: yes, b: { action: "decline" } } }));
        expect(textOf(done)).toBe("3:true:false");
      }),
      { numRuns: 8 },
    );
  });

  it("answers a resolver's rejection as it answers its throw", async () => {
    const failing = (mode: "throw" | "reject") => {
      const server = new McpServer({ name: "asker", version: "1" }, { logger: { warn() {}, error() {} } });
      server.tool("both", { needs: (need) => need.add("a", () => (mode === "throw" ? boom() : Promise.reject(new Error("resolver broke")))) }, () => ({
        content: [],
      }));
      return server;
    };
    const thrown = await answer(failing("throw"), call(1, { arguments: {} }));
    const rejected = await answer(failing("reject"), call(1, { arguments: {} }));
    expect(rejected).toEqual(thrown);
    expect((thrown as { error: { code: number } }).error.code).toBe(-32603);
  });
});

function boom(): never {
  throw new Error("resolver broke");
}

describe("the public evaluateNeeds and runWithDependencies", () => {
  it("still answer with a promise, and reject rather than throw", async () => {
    const declaration = needs().add("q", () => elicit({ message: "ok?", schema: form }));
    const evaluated = evaluateNeeds(declaration, {}, {});
    expect(evaluated).toBeInstanceOf(Promise);
    expect((await evaluated).status).toBe("input_required");
    const ran = runWithDependencies(declaration, {}, {}, () => ({ content: [] }));
    expect(ran).toBeInstanceOf(Promise);
    const broken = needs().add("q", () => boom());
    const rejected = evaluateNeeds(broken, {}, {});
    expect(rejected).toBeInstanceOf(Promise);
    await expect(rejected).rejects.toThrow("resolver broke");
    await expect(runWithDependencies(broken, {}, {}, () => ({}))).rejects.toThrow("resolver broke");
  });
});
