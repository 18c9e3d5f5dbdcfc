// The tasks extension on the server: task-augmented tools/call, tasks/get, tasks/update (MRTR inside a task),
// tasks/cancel, the store's bounds and TTL, and the errors that lose nothing.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { elicit, inputRequired, McpServer, MemoryTaskStore, runAsTask, Server, TASKS_EXTENSION, type DetailedTask } from "mcp-roundtrip/server";
import type { InputRequest } from "mcp-roundtrip/types";
import type { RequestContext } from "../../runtime/transport/types.js";
import { pair, recordingLogger, type Pairing } from "./helpers.js";

const TASKS = { extensions: { [TASKS_EXTENSION]: {} } };
const WITH_ELICIT = { ...TASKS, elicitation: {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const askConfirm = (message: string): InputRequest => ({
  method: "elicitation/create",
  params: { message, requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
});
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

/** Polls tasks/get until the task leaves `working` (or reaches `status`). */
async function until(client: Pairing, taskId: string, status?: string, context?: RequestContext): Promise<DetailedTask & Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const task = (await client.result("tasks/get", { taskId }, context)) as unknown as DetailedTask & Record<string, unknown>;
    if (status === undefined ? task.status !== "working" : task.status === status) return task;
    await sleep(5);
  }
  throw new Error(`task ${taskId} never reached ${status ?? "a non-working status"}`);
}

function server(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const mcp = new McpServer({ name: "jobs", version: "1.0.0" }, { logger: recordingLogger(), ...options });
  const aborted: string[] = [];
  mcp.tool("echo", { description: "sync only" }, (args) => text(`echo ${String(args.value)}`));
  mcp.tool("compute", { task: "optional" }, async (args, ctx) => {
    const ms = Number(args.ms ?? 0);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener("abort", () => (clearTimeout(timer), aborted.push(String(args.label)), resolve()), { once: true });
    });
    return text(`computed ${String(args.label)}`);
  });
  mcp.tool("must_task", { task: "required" }, () => text("ran as a task"));
  // Written for MRTR, unchanged: asks by hand, keeps its own requestState between rounds.
  mcp.tool("approve", { task: "optional" }, (_args, ctx) => {
    const first = ctx.inputResponses?.first as { content?: { ok?: boolean } } | undefined;
    if (ctx.requestState === undefined) return inputRequired({ inputRequests: { first: askConfirm("First?") }, requestState: "round-1" });
    if (ctx.requestState === "round-1") {
      if (first === undefined) return inputRequired({ inputRequests: { first: askConfirm("First?") }, requestState: "round-1" });
      return inputRequired({ inputRequests: { second: askConfirm("Second?") }, requestState: `round-2:${String(first.content?.ok)}` });
    }
    const second = ctx.inputResponses?.second as { content?: { ok?: boolean } } | undefined;
    return text(`${ctx.requestState} then ${String(second?.content?.ok)}`);
  });
  // Declared needs, unchanged: both questions in one round.
  mcp.tool(
    "pair_names",
    {
      task: "optional",
      needs: (need) =>
        need
          .add("a", () => elicit({ message: "Name A?", schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }))
          .add("b", () => elicit({ message: "Name B?", schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } })),
    },
    (_args, { a, b }) => text(`${String(a.content?.name)} & ${String(b.content?.name)}`),
  );
  mcp.tool("crash", { task: "optional" }, () => {
    throw new Error("disk on fire");
  });
  mcp.tool("escalating", { task: { support: "optional", start: "escalate" } }, (_args, ctx) => {
    const answer = ctx.inputResponses?.name as { content?: { name?: string } } | undefined;
    if (answer === undefined)
      return inputRequired({
        inputRequests: {
          name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } },
        },
        requestState: "asked",
      });
    return runAsTask(() => text(`hello ${String(answer.content?.name)} (state ${String(ctx.requestState)})`));
  });
  return { mcp, aborted };
}

describe("tasks: advertisement and dispatch", () => {
  it("advertises the extension once a tool declares task, and not before", async () => {
    const plain = new McpServer({ name: "plain", version: "1.0.0" });
    plain.tool("echo", {}, () => text("x"));
    const before = await pair(plain, TASKS).result("server/discover");
    expect((before.capabilities as Record<string, unknown>).extensions).toBeUndefined();
    expect((await pair(plain, TASKS).error("tasks/get", { taskId: "x" })).code).toBe(-32601);
    const after = await pair(server().mcp, TASKS).result("server/discover");
    expect(after.capabilities).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(after.capabilities).not.toHaveProperty("tasks");
  });

  it("runs a task-optional tool as a task for a declaring client and synchronously for the others", async () => {
    const { mcp } = server();
    const created = await pair(mcp, TASKS).result("tools/call", { name: "compute", arguments: { label: "a" } });
    expect(created).toMatchObject({ resultType: "task", status: "working", pollIntervalMs: 1000 });
    expect(created.taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(Number.isInteger(created.ttlMs)).toBe(true);
    expect(created).not.toHaveProperty("requestState");
    const done = await until(pair(mcp, TASKS), created.taskId as string);
    expect(done).toMatchObject({ status: "completed", resultType: "complete", result: { resultType: "complete", content: [{ type: "text", text: "computed a" }] } });
    const sync = await pair(mcp, {}).result("tools/call", { name: "compute", arguments: { label: "b" } });
    expect(sync).toMatchObject({ resultType: "complete", content: [{ text: "computed b" }] });
  });

  it("answers -32021 naming the extension for a task-required tool and for the task methods, when the client did not declare it", async () => {
    const client = pair(server().mcp, {});
    const error = await client.error("tools/call", { name: "must_task" });
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
    expect(error.message).toContain(TASKS_EXTENSION);
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      expect((await client.error(method, { taskId: "t", inputResponses: {} })).code).toBe(-32021);
    }
  });

  it("never runs a sync-only tool as a task, whatever the client sends", async () => {
    const result = await pair(server().mcp, TASKS).result("tools/call", { name: "echo", arguments: { value: 1 }, task: { ttl: 1000 } });
    expect(result).toMatchObject({ resultType: "complete", content: [{ text: "echo 1" }] });
  });

  it("reports a thrown handler as a failed task with the JSON-RPC error, and no result", async () => {
    const { mcp } = server();
    const client = pair(mcp, TASKS);
    const created = await client.result("tools/call", { name: "crash" });
    const task = await until(client, created.taskId as string);
    expect(task).toMatchObject({ status: "failed", error: { code: -32603, message: "Internal error" } });
    expect(task).not.toHaveProperty("result");
  });
});

describe("tasks: input inside a task (MRTR composed)", () => {
  it("runs a hand-written MRTR handler unchanged: input_required, tasks/update, next round with its requestState", async () => {
    const client = pair(server().mcp, WITH_ELICIT);
    const { taskId } = (await client.result("tools/call", { name: "approve" })) as { taskId: string };
    const first = await until(client, taskId, "input_required");
    const [key1] = Object.keys(first.inputRequests!);
    expect(first.inputRequests![key1!]).toMatchObject({ method: "elicitation/create", params: { message: "First?" } });
    expect(first).not.toHaveProperty("requestState");
    expect(await client.result("tasks/update", { taskId, inputResponses: { [key1!]: accept({ ok: true }) } })).toEqual({
      resultType: "complete",
      _meta: expect.any(Object),
    });
    const second = await until(client, taskId, "input_required");
    const [key2] = Object.keys(second.inputRequests!);
    expect(key2).not.toBe(key1); // keys are unique over the task's life
    await client.result("tasks/update", { taskId, inputResponses: { [key2!]: accept({ ok: false }) } });
    const done = await until(client, taskId, "completed");
    expect(done.result).toMatchObject({ content: [{ text: "round-2:true then false" }] });
  });

  it("keeps a task input_required until every request is answered, showing only the pending keys", async () => {
    const client = pair(server().mcp, WITH_ELICIT);
    const { taskId } = (await client.result("tools/call", { name: "pair_names" })) as { taskId: string };
    const asking = await until(client, taskId, "input_required");
    const keys = Object.keys(asking.inputRequests!);
    expect(keys).toHaveLength(2);
    await client.result("tasks/update", { taskId, inputResponses: { [keys[0]!]: accept({ name: "Ada" }), ignored: { anything: 1 } } });
    const partial = (await client.result("tasks/get", { taskId })) as unknown as DetailedTask;
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests!)).toEqual([keys[1]]);
    await client.result("tasks/update", { taskId, inputResponses: { [keys[1]!]: accept({ name: "Grace" }) } });
    expect((await until(client, taskId, "completed")).result).toMatchObject({ content: [{ text: "Ada & Grace" }] });
  });

  it("refuses a malformed answer with -32602 and applies none of the batch", async () => {
    const client = pair(server().mcp, WITH_ELICIT);
    const { taskId } = (await client.result("tools/call", { name: "pair_names" })) as { taskId: string };
    const keys = Object.keys((await until(client, taskId, "input_required")).inputRequests!);
    const error = await client.error("tasks/update", { taskId, inputResponses: { [keys[0]!]: accept({ name: "Ada" }), [keys[1]!]: { action: "maybe" } } });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(keys[1]!);
    const still = (await client.result("tasks/get", { taskId })) as unknown as DetailedTask;
    expect(Object.keys(still.inputRequests!).sort()).toEqual([...keys].sort());
  });

  it("fails the task with -32021 when its questions need a capability the creating request did not declare", async () => {
    const client = pair(server().mcp, TASKS);
    const { taskId } = (await client.result("tools/call", { name: "approve" })) as { taskId: string };
    expect(await until(client, taskId)).toMatchObject({ status: "failed", error: { code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } } });
  });

  it("escalates after an MRTR round: round 1 is input_required (no taskId), round 2 is the task, its result uses the answer", async () => {
    const client = pair(server().mcp, WITH_ELICIT);
    const round1 = await client.result("tools/call", { name: "escalating" });
    expect(round1).toMatchObject({ resultType: "input_required" });
    expect(round1).not.toHaveProperty("taskId");
    const round2 = await client.result("tools/call", { name: "escalating", inputResponses: { name: accept({ name: "Lin" }) }, requestState: round1.requestState });
    expect(round2).toMatchObject({ resultType: "task" });
    expect(round2).not.toHaveProperty("requestState");
    expect((await until(client, round2.taskId as string)).result).toMatchObject({ content: [{ text: "hello Lin (state asked)" }] });
    // A client without the extension gets the work done within the call instead.
    const plain = pair(server().mcp, { elicitation: {} });
    const r1 = await plain.result("tools/call", { name: "escalating" });
    const sync = await plain.result("tools/call", { name: "escalating", inputResponses: { name: accept({ name: "Kai" }) }, requestState: r1.requestState });
    expect(sync).toMatchObject({ resultType: "complete", content: [{ text: "hello Kai (state asked)" }] });
  });

  it("completes exactly when the last key is answered, whatever the order and batching of tasks/update", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 6 }), async (order) => {
        const client = pair(server().mcp, WITH_ELICIT);
        const { taskId } = (await client.result("tools/call", { name: "pair_names" })) as { taskId: string };
        const keys = Object.keys((await until(client, taskId, "input_required")).inputRequests!);
        const answered = new Set<number>();
        for (const index of order) {
          await client.result("tasks/update", { taskId, inputResponses: { [keys[index]!]: accept({ name: `n${index}` }) } });
          answered.add(index);
          // Answers to satisfied keys (also after the task completed) are acked and ignored.
          const task = (await client.result("tasks/get", { taskId })) as unknown as DetailedTask;
          if (answered.size < 2) expect(task).toMatchObject({ status: "input_required", inputRequests: { [keys[1 - index]!]: expect.any(Object) } });
        }
        if (answered.size === 2) expect((await until(client, taskId, "completed")).result).toMatchObject({ content: [{ text: "n0 & n1" }] });
      }),
      { numRuns: 15 },
    );
  });
});

describe("tasks: cancellation, expiry, bounds, ownership", () => {
  it("cancels a running task: empty ack, status cancelled, the handler's signal aborted, and a clear error for later input", async () => {
    const { mcp, aborted } = server();
    const client = pair(mcp, WITH_ELICIT);
    const { taskId } = (await client.result("tools/call", { name: "compute", arguments: { ms: 60_000, label: "long" } })) as { taskId: string };
    const ack = await client.result("tasks/cancel", { taskId });
    expect(Object.keys(ack).sort()).toEqual(["_meta", "resultType"]);
    expect(await client.result("tasks/get", { taskId })).toMatchObject({ status: "cancelled", statusMessage: expect.stringContaining("tasks/cancel") });
    expect(aborted).toEqual(["long"]);
    // Idempotent on a terminal task.
    expect((await client.result("tasks/cancel", { taskId })).resultType).toBe("complete");
    const late = await client.error("tasks/update", { taskId, inputResponses: {} });
    expect(late).toMatchObject({ code: -32602, data: { reason: "task_cancelled", taskId, status: "cancelled" } });
    expect(late.message).toContain("cancelled");
  });

  it("says a result fetched after its TTL expired, distinct from an unknown task", async () => {
    const { mcp } = server({ tasks: { ttlMs: 30 } });
    const client = pair(mcp, TASKS);
    const { taskId } = (await client.result("tools/call", { name: "compute", arguments: { label: "x" } })) as { taskId: string };
    await until(client, taskId, "completed");
    await sleep(60);
    const expired = await client.error("tasks/get", { taskId });
    expect(expired).toMatchObject({ code: -32602, data: { reason: "task_expired", taskId } });
    expect(expired.message).toMatch(/expired .* Repeat the original request/);
    const unknown = await client.error("tasks/update", { taskId: "nope", inputResponses: {} });
    expect(unknown).toMatchObject({ code: -32602, data: { reason: "unknown_task", taskId: "nope" } });
    expect(unknown.message).toContain("Unknown task");
  });

  it("refuses a task beyond the store's bound with a clear error and keeps every task it holds", async () => {
    const { mcp } = server({ tasks: { store: new MemoryTaskStore({ maxTasks: 2 }) } });
    const client = pair(mcp, TASKS);
    const a = (await client.result("tools/call", { name: "compute", arguments: { ms: 60_000, label: "a" } })).taskId as string;
    const b = (await client.result("tools/call", { name: "compute", arguments: { ms: 60_000, label: "b" } })).taskId as string;
    const full = await client.error("tools/call", { name: "compute", arguments: { label: "c" } });
    expect(full).toMatchObject({ code: -32603, data: { reason: "too_many_tasks", limit: 2 } });
    expect(full.message).toContain("Too many tasks");
    for (const taskId of [a, b]) expect((await client.result("tasks/get", { taskId })).status).toBe("working");
    for (const taskId of [a, b]) await client.result("tasks/cancel", { taskId });
  });

  it("shows a task only to the caller that created it", async () => {
    const { mcp } = server();
    const alice: RequestContext = { authInfo: { clientId: "alice", scopes: [] } };
    const bob: RequestContext = { authInfo: { clientId: "bob", scopes: [] } };
    const client = pair(mcp, TASKS);
    const { taskId } = (await client.result("tools/call", { name: "compute", arguments: { label: "mine" } }, alice)) as { taskId: string };
    expect(await client.error("tasks/get", { taskId }, bob)).toMatchObject({ code: -32602, data: { reason: "unknown_task" } });
    expect(await client.error("tasks/cancel", { taskId })).toMatchObject({ code: -32602, data: { reason: "unknown_task" } });
    expect((await until(client, taskId, "completed", alice)).status).toBe("completed");
  });

  it("tells only the owner that a task expired; to anyone else it is unknown", async () => {
    // Long enough that a loaded machine's polling sees the task completed before it expires.
    const { mcp } = server({ tasks: { ttlMs: 250 } });
    const alice: RequestContext = { authInfo: { clientId: "alice", scopes: [] } };
    const client = pair(mcp, TASKS);
    const { taskId } = (await client.result("tools/call", { name: "compute", arguments: { label: "gone" } }, alice)) as { taskId: string };
    await until(client, taskId, "completed", alice);
    await sleep(300);
    expect(await client.error("tasks/get", { taskId })).toMatchObject({ data: { reason: "unknown_task" } });
    expect(await client.error("tasks/get", { taskId }, alice)).toMatchObject({ data: { reason: "task_expired" } });
  });

  it("tells status listeners every change, on the low-level Server too", async () => {
    const low = new Server(
      { name: "low", version: "1.0.0" },
      { onCallTool: () => text("done") },
      { tasks: { taskSupport: (name) => (name === "job" ? "optional" : undefined) } },
    );
    const seen: string[] = [];
    low.onTaskStatus((task) => seen.push(task.status));
    const client = pair(low, TASKS);
    const { taskId } = (await client.result("tools/call", { name: "job" })) as { taskId: string };
    await until(client, taskId, "completed");
    expect(seen).toEqual(["working", "completed"]);
    expect((await client.result("tools/call", { name: "other" })).resultType).toBe("complete");
  });

  it("answers -32601 for the removed v1 methods, -32602 for malformed params, and -32603 for runAsTask from a tool that declares no task", async () => {
    const { mcp } = server();
    mcp.tool("sneaky", {}, () => runAsTask(() => text("never")));
    const client = pair(mcp, TASKS);
    for (const method of ["tasks/result", "tasks/list"]) expect((await client.error(method, { taskId: "x" })).code).toBe(-32601);
    expect(await client.error("tasks/get", {})).toMatchObject({ code: -32602, message: expect.stringContaining("/params/taskId") });
    expect(await client.error("tasks/update", { taskId: "x", inputResponses: [] })).toMatchObject({
      code: -32602,
      message: expect.stringContaining("inputResponses"),
    });
    const refused = await client.error("tools/call", { name: "sneaky" });
    expect(refused.code).toBe(-32603);
    expect(refused.message).toContain('start: "escalate"');
  });

  it("shares tasks between instances through one store; a cancel recorded elsewhere outlives the work finishing", async () => {
    const store = new MemoryTaskStore();
    const a = pair(server({ tasks: { store } }).mcp, TASKS);
    const b = pair(server({ tasks: { store } }).mcp, TASKS);
    const { taskId } = (await a.result("tools/call", { name: "compute", arguments: { ms: 40, label: "shared" } })) as { taskId: string };
    expect((await b.result("tasks/get", { taskId })).status).toBe("working");
    await b.result("tasks/cancel", { taskId });
    await sleep(80);
    for (const instance of [a, b]) expect(await instance.result("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
  });

  it("rejects a malformed task declaration at registration", () => {
    const mcp = new McpServer({ name: "x", version: "1.0.0" });
    expect(() => mcp.tool("bad", { task: "sometimes" as never }, () => text("x"))).toThrow(/task must be "optional", "required"/);
    expect(() => new MemoryTaskStore({ maxTasks: 0 })).toThrow(RangeError);
  });
});

describe("a task that runs out of input rounds", () => {
  async function runOut(ask: (round: number) => string) {
    const logger = recordingLogger();
    const mcp = new McpServer({ name: "jobs", version: "1.0.0" }, { logger, tasks: { maxInputRounds: 2 } });
    let round = 0;
    mcp.tool("ask", { task: "optional" }, () => inputRequired({ inputRequests: { q: askConfirm(ask(++round)) }, requestState: "s" }));
    const client = pair(mcp, WITH_ELICIT);
    const { taskId } = (await client.result("tools/call", { name: "ask" })) as { taskId: string };
    for (;;) {
      const task = await until(client, taskId);
      if (task.status === "failed") break;
      const [key] = Object.keys(task.inputRequests!);
      await client.result("tasks/update", { taskId, inputResponses: { [key!]: accept({ ok: true }) } });
    }
    return logger.errors.map((entry) => entry.message).join("\n");
  }

  it("the same question every round: says the answers were not taken, no advice to raise the limit", async () => {
    const logged = await runOut(() => "Again?");
    expect(logged).toContain("the task still asked for input after 2 rounds; some rounds asked the same questions again, so the answers given were not taken");
    expect(logged).not.toContain("raise tasks.maxInputRounds");
  });

  it("a new question every round: the advice to raise tasks.maxInputRounds", async () => {
    const logged = await runOut((round) => `Question ${round}?`);
    expect(logged).toContain("every round asked new questions: raise tasks.maxInputRounds if the tool really asks this much");
  });
});
