/**
 * The fixtures of the conformance suite's tasks-* scenarios (the
 * `io.modelcontextprotocol/tasks` extension): tools that run as tasks, ask
 * for input from inside a task, fail either way, and escalate to a task
 * after an MRTR round.
 */
import { McpError, inputRequired, runAsTask, type McpServer } from "mcp-roundtrip/server";
import type { InputRequest } from "mcp-roundtrip/types";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** Resolves after `ms`, or at once when `signal` aborts (a cancelled task stops waiting). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

function ask(message: string, field: string, type: "string" | "boolean"): InputRequest {
  const schema = type === "string" ? { type: "string" as const } : { type: "boolean" as const };
  return { method: "elicitation/create", params: { message, requestedSchema: { type: "object", properties: { [field]: schema }, required: [field] } } };
}

function content(answer: unknown): Record<string, unknown> | undefined {
  const value = answer as { action?: unknown; content?: unknown } | undefined;
  return value?.action === "accept" && typeof value.content === "object" && value.content !== null ? (value.content as Record<string, unknown>) : undefined;
}

/** Registers the task fixtures on the everything server. */
export function registerTaskTools(mcp: McpServer): void {
  mcp.tool(
    "greet",
    { description: "Greets by name, synchronously (never a task)", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
    (args) => text(`Hello, ${typeof args.name === "string" ? args.name : "World"}!`),
  );
  mcp.tool(
    "slow_compute",
    {
      description: "Sleeps `seconds` seconds, then reports; runs as a task for clients that declare the tasks extension",
      inputSchema: { type: "object", properties: { seconds: { type: "number", minimum: 0 }, label: { type: "string" } } },
      task: "optional",
    },
    async (args, ctx) => {
      const seconds = typeof args.seconds === "number" ? args.seconds : 1;
      await pause(seconds * 1000, ctx.signal);
      return text(`Computed ${typeof args.label === "string" ? args.label : "result"} after ${seconds}s`);
    },
  );
  mcp.tool(
    "failing_job",
    { description: "Always ends in a tool error; task support required", inputSchema: { type: "object", properties: {} }, task: "required" },
    async (_args, ctx) => {
      await pause(300, ctx.signal);
      return { ...text("The job failed: the input dataset is empty"), isError: true };
    },
  );
  mcp.tool(
    "protocol_error_job",
    { description: "Fails with a JSON-RPC error (a failed task)", inputSchema: { type: "object", properties: {} }, task: "optional" },
    async (_args, ctx) => {
      await pause(100, ctx.signal);
      throw new McpError(-32603, "protocol_error_job: the job's backend is unreachable");
    },
  );
  mcp.tool(
    "confirm_delete",
    {
      description: "Asks for confirmation from inside a task, then deletes (pretends to)",
      inputSchema: { type: "object", properties: { filename: { type: "string" } } },
      task: "optional",
    },
    (args, ctx) => {
      const filename = typeof args.filename === "string" ? args.filename : "file";
      const answer = content(ctx.inputResponses?.confirm);
      if (answer === undefined) return inputRequired({ inputRequests: { confirm: ask(`Delete ${filename}?`, "confirm", "boolean") } });
      return text(answer.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  );
  mcp.tool(
    "multi_input",
    { description: "Asks two questions at once from inside a task", inputSchema: { type: "object", properties: {} }, task: "optional" },
    (_args, ctx) => {
      const first = content(ctx.inputResponses?.first);
      const second = content(ctx.inputResponses?.second);
      if (first === undefined || second === undefined) {
        return inputRequired({ inputRequests: { first: ask("First name?", "name", "string"), second: ask("Second name?", "name", "string") } });
      }
      return text(`Got ${String(first.name)} and ${String(second.name)}`);
    },
  );
  mcp.tool(
    "test_tool_with_task",
    {
      description: "Asks for a name over MRTR, then escalates to a task that greets",
      inputSchema: { type: "object", properties: {} },
      task: { support: "required", start: "escalate" },
    },
    (_args, ctx) => {
      const name = content(ctx.inputResponses?.user_name)?.name;
      if (typeof name !== "string") {
        return inputRequired({ inputRequests: { user_name: ask("What is your name?", "name", "string") } });
      }
      return runAsTask(async (taskCtx) => {
        await pause(200, taskCtx.signal);
        return text(`Hello, ${name}! (from a task)`);
      });
    },
  );
}
