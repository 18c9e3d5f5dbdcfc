// What 10,000 pending tasks cost a server (the tasks extension): each
// tools/call creates a task whose handler asks for a confirmation and parks
// in input_required, and no client ever answers. Unlike a sealed MRTR
// exchange, a task lives on the server by design: its record in the store,
// its handler's context, and the timer that abandons it after ttlMs.
import { McpServer, MemoryTaskStore, inputRequired } from "mcp-roundtrip/server";
import { confirmRequest, garbageCollector, settledHeap } from "./pending.mjs";
import { CONFIRM_SCHEMA, confirmedText, textOf } from "./fixtures.mjs";

const TASKS = "io.modelcontextprotocol/tasks";
const TEXT_ARGUMENTS = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

/** The bench's `confirm` tool, unchanged, declared task-optional. */
function taskServer(maxTasks) {
  const server = new McpServer({ name: "bench-tasks", version: "1.0.0" }, { tasks: { store: new MemoryTaskStore({ maxTasks }), pollIntervalMs: 1 } });
  server.tool("confirm", { inputSchema: TEXT_ARGUMENTS, task: "optional" }, ({ text }, ctx) => {
    const answer = ctx.inputResponses?.confirm;
    if (answer?.action !== "accept" || answer.content?.confirm !== true) {
      return inputRequired({
        inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form", message: `Confirm ${text}?`, requestedSchema: CONFIRM_SCHEMA } } },
        requestState: JSON.stringify({ text }),
      });
    }
    return { content: [{ type: "text", text: confirmedText(JSON.parse(ctx.requestState).text) }] };
  });
  return server;
}

function request(id, method, params) {
  const meta = confirmRequest(0).params._meta;
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: { ...params, _meta: { ...meta, "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [TASKS]: {} } } } },
  };
}

async function status(server, taskId) {
  const response = await server.handle(request(`get-${taskId}`, "tasks/get", { taskId }));
  if (response?.result === undefined) throw new Error(`tasks/get failed: ${JSON.stringify(response)}`);
  return response.result;
}

/**
 * Heap growth of our McpServer holding `count` tasks parked in input_required
 * (after `warmup` of them already parked), then finishes the last one through
 * tasks/update to prove the pending tasks were real.
 * @param {{ count: number, warmup: number }} sizes
 * @returns {Promise<{ heapGrowthBytes: number, perTaskBytes: number }>}
 * @throws {Error} when a call does not create a task, or a task does not park or finish.
 */
export async function pendingTasks({ count, warmup }) {
  const collect = garbageCollector();
  const server = taskServer(count + warmup);
  const run = async (from, to) => {
    let last;
    for (let i = from; i < to; i++) {
      const response = await server.handle(request(i + 1, "tools/call", { name: "confirm", arguments: { text: `item-${i}` } }));
      if (response?.result?.resultType !== "task") throw new Error(`call ${i} did not create a task: ${JSON.stringify(response)}`);
      last = response.result.taskId;
    }
    // The handlers run right after their handles are sent: let every one of them park.
    await new Promise((resolve) => setImmediate(resolve));
    if ((await status(server, last)).status !== "input_required") throw new Error(`task ${last} did not park in input_required`);
    return last;
  };
  await run(0, warmup);
  const before = settledHeap(collect);
  const last = await run(warmup, warmup + count);
  const after = settledHeap(collect);
  const parked = await status(server, last);
  const [key] = Object.keys(parked.inputRequests);
  await server.handle(request("update", "tasks/update", { taskId: last, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } }));
  await new Promise((resolve) => setImmediate(resolve));
  const done = await status(server, last);
  if (done.status !== "completed" || textOf(done.result) !== confirmedText(`item-${warmup + count - 1}`)) {
    throw new Error(`finishing a pending task failed: ${JSON.stringify(done)}`);
  }
  return { heapGrowthBytes: after - before, perTaskBytes: (after - before) / count };
}
