// A catalog server whose tool list changes at run time, a long import that
// reports progress and can be cancelled, and a client that follows both:
// subscriptions/listen for the list, per-call callbacks for the import.
import { Client } from "mcp-roundtrip/client";
import { McpServer } from "mcp-roundtrip/server";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** The server: `import` adds one `lookup-<n>` tool per imported file, reporting progress as it goes. */
export function catalogServer(): McpServer {
  const mcp = new McpServer({ name: "catalog", version: "1.0.0" });
  let imported = 0;
  mcp.tool("import", { inputSchema: { type: "object", properties: { files: { type: "number" } }, required: ["files"] } }, async (args, ctx) => {
    const files = Number(args.files);
    for (let n = 1; n <= files; n++) {
      if (ctx.signal.aborted) return text(`stopped after ${n - 1} of ${files}`);
      const id = ++imported;
      mcp.tool(`lookup-${id}`, {}, () => text(`entry ${id}`)); // every listener hears tools/list_changed
      await ctx.progress(n, files, `imported file ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return text(`imported ${files} files`);
  });
  return mcp;
}

/** The client side: follows the tool list while an import runs, then cancels a second one. */
export async function runExample(log: (line: string) => void): Promise<string[]> {
  const client = await Client.connect(catalogServer());
  try {
    let tools = (await client.listAllTools()).map((tool) => tool.name);
    const subscription = client.subscribe({ toolsListChanged: true });
    await subscription.acknowledged;
    const following = (async () => {
      for await (const event of subscription) {
        if (event.type === "toolsListChanged") tools = (await client.listAllTools()).map((tool) => tool.name);
      }
    })();

    await client.callTool(
      "import",
      { files: 3 },
      {
        onProgress: ({ progress, total, message }) => log(`${progress}/${total}: ${message}`),
      },
    );

    const stop = new AbortController();
    const cancelled = client.callTool(
      "import",
      { files: 100 },
      {
        signal: stop.signal,
        onProgress: ({ progress }) => progress === 2 && stop.abort(new Error("enough")),
      },
    );
    await cancelled.catch((error: Error) => log(`second import: ${error.message}`));

    await subscription.close();
    await following;
    return tools;
  } finally {
    await client.close();
  }
}
