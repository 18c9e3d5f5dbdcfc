import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { McpError, elicit, evaluateNeeds, listRoots, needs, runWithDependencies, sample, type DependencyRound } from "mcp-roundtrip/server";

const ALL_CAPS = { elicitation: {}, sampling: {}, roots: {} };

const regionForm = {
  type: "object",
  properties: { region: { type: "string", enum: ["eu", "us"] } },
  required: ["region"],
} as const;
const sizeForm = { type: "object", properties: { gb: { type: "integer", minimum: 1 } }, required: ["gb"] } as const;

/** A tool with two independent questions, a roots request, and a plain value. */
const provision = () =>
  needs<{ name: string }>()
    .add("region", () => elicit({ message: "Which region?", schema: regionForm }))
    .add("size", (args) => elicit({ message: `How big is ${args.name}?`, schema: sizeForm }))
    .add("roots", () => listRoots())
    .add("label", (args) => `db-${args.name}`);

type Answers = Record<string, unknown>;

/** Plays a round: evaluate with the given answers and the previous round's state. */
async function round<R extends object>(
  declaration: Parameters<typeof evaluateNeeds<{ name: string }, R>>[0],
  state: string | undefined,
  inputResponses: Answers | undefined,
  extra: Partial<DependencyRound> = {},
) {
  return evaluateNeeds(declaration, { name: "orders" }, { requestState: state, inputResponses, clientCapabilities: ALL_CAPS, ...extra });
}

function pending(result: Awaited<ReturnType<typeof evaluateNeeds>>) {
  if (result.status !== "input_required") throw new Error(`expected input_required, got ${JSON.stringify(result)}`);
  return result;
}

describe("a round of dependencies", () => {
  it("asks every independent question at once, under the declared keys, as wire input requests", async () => {
    const first = pending(await round(provision(), undefined, undefined));
    expect(Object.keys(first.inputRequests)).toEqual(["region", "size", "roots"]);
    expect(first.inputRequests.region).toEqual({
      method: "elicitation/create",
      params: { mode: "form", message: "Which region?", requestedSchema: regionForm },
    });
    expect(first.inputRequests.size).toMatchObject({ params: { message: "How big is orders?" } });
    expect(first.inputRequests.roots).toEqual({ method: "roots/list" });
    expect(typeof first.requestState).toBe("string");
  });

  it("resolves with typed values once every answer is in", async () => {
    const first = pending(await round(provision(), undefined, undefined));
    const done = await round(provision(), first.requestState, {
      region: { action: "accept", content: { region: "eu" } },
      size: { action: "accept", content: { gb: 20 } },
      roots: { roots: [{ uri: "file:///srv", name: "srv" }] },
    });
    expect(done).toEqual({
      status: "ready",
      values: {
        region: { action: "accept", content: { region: "eu" } },
        size: { action: "accept", content: { gb: 20 } },
        roots: [{ uri: "file:///srv", name: "srv" }],
        label: "db-orders",
      },
    });
  });

  it("keeps accepted answers in the state, re-asking only what is missing", async () => {
    const first = pending(await round(provision(), undefined, undefined));
    const second = pending(await round(provision(), first.requestState, { region: { action: "accept", content: { region: "us" } } }));
    expect(Object.keys(second.inputRequests)).toEqual(["size", "roots"]);
    // Third call sends only the new answers; the region answer comes from the state.
    const third = await round(provision(), second.requestState, {
      size: { action: "accept", content: { gb: 1 } },
      roots: { roots: [] },
    });
    expect(third.status).toBe("ready");
    if (third.status === "ready") expect(third.values.region).toEqual({ action: "accept", content: { region: "us" } });
  });

  it("uses input keys derived from the declaration: a fresh declaration in another process reads the state", async () => {
    const first = pending(await round(provision(), undefined, undefined));
    // Simulate another process: a brand-new declaration object, same source.
    const elsewhere = provision();
    const done = await round(elsewhere, first.requestState, {
      region: { action: "accept", content: { region: "eu" } },
      size: { action: "accept", content: { gb: 3 } },
      roots: { roots: [] },
    });
    expect(done.status).toBe("ready");
  });

  it("re-asks an answer that fails the question's schema, and does not keep it", async () => {
    const first = pending(await round(provision(), undefined, undefined));
    const second = pending(
      await round(provision(), first.requestState, {
        region: { action: "accept", content: { region: "mars" } },
        size: { action: "accept", content: { gb: 0 } },
        roots: { roots: [{ name: "no uri" }] },
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["region", "size", "roots"]);
  });

  it("does not consume an answer sent without the echoed state", async () => {
    const result = pending(
      await round(provision(), undefined, {
        region: { action: "accept", content: { region: "eu" } },
        size: { action: "accept", content: { gb: 3 } },
        roots: { roots: [] },
      }),
    );
    expect(Object.keys(result.inputRequests)).toEqual(["region", "size", "roots"]);
  });

  it("re-asks a question that was reworded since it was asked", async () => {
    const first = pending(await round(provision(), undefined, undefined));
    const reworded = needs<{ name: string }>()
      .add("region", () => elicit({ message: "Which region should it live in?", schema: regionForm }))
      .add("size", (args) => elicit({ message: `How big is ${args.name}?`, schema: sizeForm }));
    const second = pending(
      await round(reworded, first.requestState, {
        region: { action: "accept", content: { region: "eu" } },
        size: { action: "accept", content: { gb: 3 } },
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["region"]);
  });

  it("re-asks a recorded answer once the question's schema changed", async () => {
    const ask = (regions: readonly string[]) =>
      needs<{ name: string }>()
        .add("region", () =>
          elicit({ message: "Which region?", schema: { type: "object", properties: { region: { type: "string", enum: regions } }, required: ["region"] } }),
        )
        .add("size", () => elicit({ message: "Size?", schema: sizeForm }));
    const first = pending(await round(ask(["eu", "us"]), undefined, undefined));
    const second = pending(await round(ask(["eu", "us"]), first.requestState, { region: { action: "accept", content: { region: "eu" } } }));
    expect(Object.keys(second.inputRequests)).toEqual(["size"]);
    // Deployed a new version between rounds: the recorded region answer no longer applies.
    const third = pending(await round(ask(["eu", "us", "ap"]), second.requestState, { size: { action: "accept", content: { gb: 2 } } }));
    expect(Object.keys(third.inputRequests)).toEqual(["region"]);
  });

  it("keeps declined and cancelled outcomes and hands them to the handler", async () => {
    const declaration = needs<{ name: string }>()
      .add("region", () => elicit({ message: "Which region?", schema: regionForm }))
      .add("size", () => elicit({ message: "Size?", schema: sizeForm }))
      .add("note", () => elicit({ message: "Note?", schema: { type: "object", properties: { text: { type: "string" } } } }));
    const first = pending(await round(declaration, undefined, undefined));
    const second = pending(await round(declaration, first.requestState, { region: { action: "decline" }, size: { action: "cancel", content: { gb: 9 } } }));
    expect(Object.keys(second.inputRequests)).toEqual(["note"]);
    const done = await round(declaration, second.requestState, { note: { action: "accept" } });
    expect(done).toEqual({
      status: "ready",
      values: { region: { action: "decline" }, size: { action: "cancel" }, note: { action: "accept", content: {} } },
    });
  });

  it("asks a dependent question only after the answers it reads, in a later round", async () => {
    const order: string[] = [];
    const declaration = needs<{ name: string }>()
      .add("region", () => elicit({ message: "Which region?", schema: regionForm }))
      .add("size", () => elicit({ message: "Size?", schema: sizeForm }))
      .add("confirm", (_args, { region, size }) => {
        order.push("confirm");
        const where = region.action === "accept" ? region.content.region : "default";
        const gb = size.action === "accept" ? size.content.gb : 1;
        return elicit({ message: `Create ${gb} GB in ${where}?`, schema: { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } });
      });
    const first = pending(await round(declaration, undefined, undefined));
    expect(Object.keys(first.inputRequests)).toEqual(["region", "size"]);
    expect(order).toEqual([]);
    const second = pending(
      await round(declaration, first.requestState, {
        region: { action: "accept", content: { region: "eu" } },
        size: { action: "accept", content: { gb: 5 } },
      }),
    );
    expect(second.inputRequests).toEqual({
      confirm: expect.objectContaining({ params: expect.objectContaining({ message: "Create 5 GB in eu?" }) }),
    });
    const done = await round(declaration, second.requestState, { confirm: { action: "accept", content: { yes: true } } });
    expect(done.status).toBe("ready");
  });

  it("treats a missing, foreign, garbled or other-version state as empty, never crashing (property)", async () => {
    const declaration = provision();
    const states = fc.oneof(
      fc.string(),
      fc.json(),
      fc.constant('{"v":"mcp-roundtrip/needs@0","q":{"region":"x"}}'),
      fc.record({ v: fc.constant("mcp-roundtrip/needs@1"), q: fc.anything(), a: fc.anything() }).map((s) => JSON.stringify(s)),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(states, async (state) => {
        const result = await round(declaration, state as string, { region: { action: "accept", content: { region: "eu" } } });
        expect(result.status).toBe("input_required");
      }),
      { numRuns: 200 },
    );
  });

  it("ignores inputResponses that are not an object", async () => {
    const first = pending(await round(provision(), undefined, undefined));
    const again = pending(await round(provision(), first.requestState, ["nope"] as never));
    expect(Object.keys(again.inputRequests)).toEqual(["region", "size", "roots"]);
  });
});

describe("capabilities", () => {
  it.each([
    ["elicitation", () => elicit({ message: "Region?", schema: regionForm }), { sampling: {}, roots: {} }, { elicitation: { form: {} } }],
    [
      "form elicitation from a url-only client",
      () => elicit({ message: "Region?", schema: regionForm }),
      { elicitation: { url: {} } },
      { elicitation: { form: {} } },
    ],
    ["sampling", () => sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }), { elicitation: {} }, { sampling: {} }],
    [
      "sampling with tools",
      () => sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5, tools: [{ name: "t", inputSchema: { type: "object" } }] }),
      { sampling: {} },
      { sampling: { tools: {} } },
    ],
    ["roots", () => listRoots(), { elicitation: {}, sampling: {} }, { roots: {} }],
  ])("a %s question the client did not declare is a -32021 naming it", async (_label, ask, caps, required) => {
    const declaration = needs().add("q", ask as () => unknown);
    const error = await evaluateNeeds(declaration, {}, { clientCapabilities: caps }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32021);
    expect((error as McpError).data).toEqual({ requiredCapabilities: required });
  });

  it("an elicitation capability naming form, or no mode, is enough", async () => {
    const declaration = needs().add("q", () => elicit({ message: "Region?", schema: regionForm }));
    for (const elicitation of [{}, { form: {} }, { form: {}, url: {} }]) {
      const result = await evaluateNeeds(declaration, {}, { clientCapabilities: { elicitation } });
      expect(result.status).toBe("input_required");
    }
  });

  it("does not demand a capability for a question already answered", async () => {
    const declaration = needs().add("q", () => elicit({ message: "Region?", schema: regionForm }));
    const first = pending(await evaluateNeeds(declaration, {}, { clientCapabilities: ALL_CAPS }));
    const done = await evaluateNeeds(
      declaration,
      {},
      {
        requestState: first.requestState,
        inputResponses: { q: { action: "accept", content: { region: "eu" } } },
        clientCapabilities: {},
      },
    );
    expect(done.status).toBe("ready");
  });
});

describe("runWithDependencies", () => {
  it("never runs the body while anything is pending", async () => {
    const body = vi.fn(() => ({ content: [] }));
    const first = await runWithDependencies(provision(), { name: "x" }, { clientCapabilities: ALL_CAPS }, body);
    expect(first).toMatchObject({ resultType: "input_required" });
    const second = await runWithDependencies(
      provision(),
      { name: "x" },
      { clientCapabilities: ALL_CAPS, requestState: (first as { requestState: string }).requestState, inputResponses: { region: { action: "decline" } } },
      body,
    );
    expect(second).toMatchObject({ resultType: "input_required", inputRequests: { size: expect.anything(), roots: expect.anything() } });
    expect(body).not.toHaveBeenCalled();
  });

  it("runs the body once with the resolved values and returns its result", async () => {
    const declaration = needs<{ n: number }>().add("double", (args) => args.n * 2);
    const result = await runWithDependencies(declaration, { n: 21 }, {}, (values) => ({
      content: [{ type: "text", text: String(values.double) }],
    }));
    expect(result).toEqual({ content: [{ type: "text", text: "42" }] });
  });

  it("rejects a body that also returns an InputRequiredResult with -32603 telling the author to pick one form", async () => {
    const declaration = needs().add("n", () => 1);
    const error = await runWithDependencies(declaration, {}, {}, () => ({ resultType: "input_required", requestState: "x" }), "deploy").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
    expect((error as McpError).message).toMatch(/deploy.*one form/);
  });
});

describe("authoring errors", () => {
  it("a resolver that reads a dependency declared after it gets a TypeError naming both", async () => {
    const declaration = needs()
      .add("a", (_args, resolved) => (resolved as Record<string, unknown>).b)
      .add("b", () => 1);
    await expect(evaluateNeeds(declaration, {}, {})).rejects.toThrow(/"a" reads "b".*declare "b" before "a"/);
  });

  it("a duplicate or empty key is refused at declaration", () => {
    const declaration = needs().add("a", () => 1);
    expect(() => declaration.add("a" as never, () => 2)).toThrow(/declared twice/);
    expect(() => needs().add("", () => 2)).toThrow(TypeError);
    expect(() => needs().add("__proto__", () => 2)).toThrow(/__proto__/);
    expect(() => needs().add("x", 5 as never)).toThrow(TypeError);
  });

  it("a resolver's own error propagates unchanged", async () => {
    const boom = new Error("no database");
    const declaration = needs().add("a", () => {
      throw boom;
    });
    await expect(evaluateNeeds(declaration, {}, {})).rejects.toBe(boom);
  });

  it("sample() and listRoots() render their wire requests; sample() checks its parameters", () => {
    const question = sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, systemPrompt: "be brief" });
    expect(question.request).toEqual({
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, systemPrompt: "be brief" },
    });
    expect(listRoots().request).toEqual({ method: "roots/list" });
    expect(() => sample({ messages: [], maxTokens: 10 })).toThrow(TypeError);
    expect(() => sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 0 })).toThrow(RangeError);
    expect(() => sample({ messages: [{ role: "system" as never, content: { type: "text", text: "x" } }], maxTokens: 1 })).toThrow(/messages\[0\]/);
  });

  it("a sampling answer is validated before the handler sees it", async () => {
    const question = sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 });
    expect((await question.read({ role: "assistant", model: "m", content: { type: "text", text: "yo" } })).ok).toBe(true);
    expect((await question.read({ role: "assistant", model: "m", content: [{ type: "text", text: "a" }] })).ok).toBe(true);
    expect((await question.read({ role: "robot", model: "m", content: { type: "text", text: "yo" } })).ok).toBe(false);
    expect((await question.read({ role: "assistant", content: { type: "text", text: "yo" } })).ok).toBe(false);
    expect((await question.read({ role: "assistant", model: "m", content: "yo" })).ok).toBe(false);
  });
});

describe("question digests", () => {
  it("the cached form digest equals the digest of the rendered request in canonical JSON", async () => {
    const { questionDigest } = await import("../../runtime/server/dependencies/digest.js");
    fc.assert(
      fc.property(
        fc.string(),
        fc.dictionary(fc.string({ minLength: 1 }), fc.constantFrom({ type: "string" }, { type: "boolean" }, { type: "integer", minimum: 0 })),
        (message, properties) => {
          fc.pre(message.trim() !== "");
          const question = elicit({ message, schema: { type: "object", properties } });
          expect(question.digest).toBe(questionDigest(question.request));
        },
      ),
    );
  });

  it("differs when the message or the schema differs, whatever the key order", () => {
    const a = elicit({ message: "Region?", schema: { type: "object", properties: { r: { type: "string" } }, required: ["r"] } });
    const reordered = elicit({ message: "Region?", schema: { required: ["r"], properties: { r: { type: "string" } }, type: "object" } });
    const reworded = elicit({ message: "Region? ", schema: { type: "object", properties: { r: { type: "string" } }, required: ["r"] } });
    const loosened = elicit({ message: "Region?", schema: { type: "object", properties: { r: { type: "string" } } } });
    expect(reordered.digest).toBe(a.digest);
    expect(new Set([a.digest, reworded.digest, loosened.digest]).size).toBe(3);
  });
});
