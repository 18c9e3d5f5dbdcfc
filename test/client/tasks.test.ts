// The client follows tasks (the tasks extension) end to end against our own server, in memory and over
// Streamable HTTP: polling tasks/get, answering input requests through tasks/update with the usual
// callbacks, handles, reattaching by id, and cancellation through the caller's signal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, McpError, TaskCancelled, TASKS_EXTENSION, type TaskHandle } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { elicit, inputRequired, McpServer, type TasksOptions } from "mcp-roundtrip/server";

const quiet = { warn() {}, error() {} };
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const nameForm = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

function jobs(tasks: TasksOptions = { pollIntervalMs: 5 }) {
  const mcp = new McpServer({ name: "jobs", version: "1.0.0" }, { logger: quiet, tasks });
  const seen = { aborted: 0, methods: [] as string[] };
  mcp.tool("slow", { task: "optional" }, async (args, ctx) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Number(args.ms ?? 0));
      ctx.signal.addEventListener("abort", () => (clearTimeout(timer), seen.aborted++, resolve()), { once: true });
    });
    return text(`slept ${String(args.ms ?? 0)}`);
  });
  mcp.tool(
    "greet_twice",
    {
      task: "required",
      needs: (need) =>
        need
          .add("first", () => elicit({ message: "First name?", schema: nameForm }))
          .add("again", (_args, { first }) => elicit({ message: `Really ${String(first.content?.name)}?`, schema: nameForm })),
    },
    (_args, { first, again }) => text(`${String(first.content?.name)} / ${String(again.content?.name)}`),
  );
  mcp.tool("explode", { task: "optional" }, () => {
    throw new McpError(-32050, "the backend refused", { retryable: false });
  });
  mcp.tool("wait_for_ok", { task: "optional" }, (_args, ctx) => {
    if (ctx.inputResponses?.ok === undefined) {
      return inputRequired({
        inputRequests: { ok: { method: "elicitation/create", params: { message: "OK?", requestedSchema: { type: "object", properties: {} } } } },
      });
    }
    return text("ok");
  });
  return { mcp, seen };
}

describe("client tasks, in memory", () => {
  it("declares the extension only when asked, and a task-optional tool then runs as a task followed to its result", async () => {
    const { mcp } = jobs();
    const plain = await Client.connect(mcp);
    expect(await plain.callTool("slow", { ms: 1 })).toMatchObject({ resultType: "complete", content: [{ text: "slept 1" }] });
    const client = await Client.connect(mcp, { tasks: true });
    expect(client.serverCapabilities).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
    const handle = await client.callTool("slow", { ms: 20 }, { task: "handle" });
    expect(handle).toMatchObject({ taskId: expect.any(String) });
    expect(JSON.parse(JSON.stringify(handle))).toEqual({ taskId: (handle as TaskHandle).taskId });
    const followed = await client.callTool("slow", { ms: 20 });
    expect(followed).toMatchObject({ resultType: "complete", content: [{ text: "slept 20" }] });
    expect(await (handle as TaskHandle).result()).toMatchObject({ content: [{ text: "slept 20" }] });
  });

  it("answers a task's questions round by round with onElicit, through tasks/update", async () => {
    const asked: string[] = [];
    const client = await Client.connect(jobs().mcp, {
      tasks: true,
      onElicit: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { name: asked.length === 1 ? "Ada" : "Ada L." } };
      },
    });
    expect(await client.callTool("greet_twice")).toMatchObject({ content: [{ text: "Ada / Ada L." }] });
    expect(asked).toEqual(["First name?", "Really Ada?"]);
  });

  it("gives a task-required tool a clear -32021 when the client did not opt in", async () => {
    const client = await Client.connect(jobs().mcp, { onElicit: () => ({ action: "decline" }) });
    const error = await client.callTool("greet_twice").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
  });

  it("surfaces a failed task as the McpError the task carried", async () => {
    const client = await Client.connect(jobs().mcp, { tasks: true });
    await expect(client.callTool("explode")).rejects.toMatchObject({ name: "McpError", code: -32050, message: "the backend refused", data: { retryable: false } });
  });

  it("cancels the task with tasks/cancel when the caller's signal aborts, and the handler sees its signal abort", async () => {
    const { mcp, seen } = jobs();
    const client = await Client.connect(mcp, { tasks: true });
    const controller = new AbortController();
    const handle = (await client.callTool("slow", { ms: 60_000 }, { task: "handle" })) as TaskHandle;
    const pending = handle.result({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user gave up")), 20);
    await expect(pending).rejects.toThrow("user gave up");
    expect(await handle.get()).toMatchObject({ status: "cancelled" });
    expect(seen.aborted).toBe(1);
    // Following a task someone else cancelled is a clear error, not a hang.
    await expect(handle.result()).rejects.toBeInstanceOf(TaskCancelled);
  });

  it("reattaches to a stored task id from another client, and says so clearly once the result expired", async () => {
    const { mcp } = jobs({ pollIntervalMs: 5, ttlMs: 80 });
    const first = await Client.connect(mcp, { tasks: true, capabilities: { elicitation: { form: {} } } });
    const handle = (await first.callTool("wait_for_ok", {}, { task: "handle" })) as TaskHandle;
    const stored = JSON.stringify(handle);
    const second = await Client.connect(mcp, { tasks: true, onElicit: () => ({ action: "accept", content: {} }) });
    expect(await (await second.task(JSON.parse(stored).taskId as string)).result()).toMatchObject({ content: [{ text: "ok" }] });
    await new Promise((resolve) => setTimeout(resolve, 120));
    await expect((await second.task(handle.taskId)).get()).rejects.toMatchObject({ code: -32602, data: { reason: "task_expired" } });
  });
});

describe("client tasks over Streamable HTTP", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(jobs().mcp);
  });
  afterAll(() => http.close());

  it("follows a task with input over HTTP (Mcp-Name carries the task id)", async () => {
    const client = await Client.connect(http.url, {
      tasks: true,
      onElicit: (params) => ({ action: "accept", content: { name: params.message.startsWith("First") ? "Lin" : "Lin!" } }),
    });
    expect(await client.callTool("greet_twice")).toMatchObject({ content: [{ text: "Lin / Lin!" }] });
    const handle = (await client.callTool("slow", { ms: 10 }, { task: "handle" })) as TaskHandle;
    const raw = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tasks/get",
        "mcp-name": "someone-else",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tasks/get",
        params: {
          taskId: handle.taskId,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
          },
        },
      }),
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { code: number } }).error.code).toBe(-32020);
    expect(await handle.result()).toMatchObject({ content: [{ text: "slept 10" }] });
    await client.close();
  });
});
