/**
 * The tasks extension end to end, in one process: a tool that takes a while
 * and asks a question half-way runs as a task; the client follows it to its
 * result, answering the question with its usual `onElicit`; a second call is
 * started as a handle and cancelled.
 */
import { Client, TaskCancelled, type TaskHandle } from "mcp-roundtrip/client";
import { elicit, McpServer } from "mcp-roundtrip/server";

const formatForm = { type: "object", properties: { format: { type: "string", enum: ["csv", "json"] } }, required: ["format"] } as const;

/** A server with `export_orders`: slow, and it asks which format once it has counted the rows. */
export function exportServer(): McpServer {
  const mcp = new McpServer({ name: "exporter", version: "1.0.0" }, { tasks: { pollIntervalMs: 20, ttlMs: 60_000 } });
  mcp.tool(
    "export_orders",
    {
      description: "Exports every order; takes a while",
      task: "optional",
      needs: (need) => need.add("format", () => elicit({ message: "Which format?", schema: formatForm })),
    },
    async (_args, { format }, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ctx.signal.throwIfAborted();
      return { content: [{ type: "text", text: `Exported 1,204 orders as ${String(format.content?.format)}.` }] };
    },
  );
  return mcp;
}

/** Runs the client side: one call followed to its result, one started as a handle and cancelled. */
export async function runExport(server: McpServer = exportServer()): Promise<{ text: string; cancelled: boolean }> {
  const client = await Client.connect(server, {
    tasks: true,
    onElicit: () => ({ action: "accept", content: { format: "csv" } }),
  });
  const result = await client.callTool("export_orders");
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";

  const handle = (await client.callTool("export_orders", {}, { task: "handle" })) as TaskHandle;
  await handle.cancel();
  const cancelled = await handle.result().then(
    () => false,
    (error: unknown) => error instanceof TaskCancelled,
  );
  await client.close();
  return { text, cancelled };
}
