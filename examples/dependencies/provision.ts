// The provision tool with declared dependencies: region and size are asked
// together, then a confirmation that quotes both. The handler only ever sees
// the answers; the SDK builds every InputRequiredResult and seals the state.
import { Client, type ElicitRequestParams, type ElicitResult } from "mcp-roundtrip/client";
import { McpServer, elicit } from "mcp-roundtrip/server";

const regionForm = {
  type: "object",
  properties: { region: { type: "string", title: "Region", enum: ["eu-west-1", "us-east-1", "ap-south-1"] } },
  required: ["region"],
} as const;
const sizeForm = { type: "object", properties: { gb: { type: "integer", title: "Size (GB)", minimum: 1, maximum: 1024 } }, required: ["gb"] } as const;
const confirmForm = { type: "object", properties: { yes: { type: "boolean", title: "Go ahead" } }, required: ["yes"] } as const;

/** Builds the server: one tool, three dependencies. */
export function createServer(): McpServer {
  const server = new McpServer({ name: "provisioner-with-needs", version: "1.0.0" });
  server.tool(
    "provision",
    {
      description: "Provision a database. Asks for a region and a size, then for confirmation.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      needs: (need) =>
        need
          .add("region", () => elicit({ message: "Which region should the database live in?", schema: regionForm }))
          .add("size", (args) => elicit({ message: `How many GB does ${String(args.name)} need?`, schema: sizeForm }))
          .add("confirm", (args, { region, size }) => {
            const where = region.action === "accept" ? region.content.region : "eu-west-1";
            const gb = size.action === "accept" ? size.content.gb : 10;
            return elicit({ message: `Create ${String(args.name)} with ${gb} GB in ${where}?`, schema: confirmForm });
          }),
    },
    (args, { region, size, confirm }) => {
      if (confirm.action !== "accept" || !confirm.content.yes) return { content: [{ type: "text", text: "Nothing provisioned." }] };
      const where = region.action === "accept" ? region.content.region : "eu-west-1";
      const gb = size.action === "accept" ? size.content.gb : 10;
      return { content: [{ type: "text", text: `Provisioned '${String(args.name)}': ${gb} GB in ${where}.` }] };
    },
  );
  return server;
}

/**
 * Calls the tool through an in-process client whose `onElicit` answers from
 * `answers` (by the form's first field) and reports each question asked.
 */
export async function runExample(print: (line: string) => void, answers: { region: string; gb: number; yes: boolean }): Promise<string> {
  const onElicit = async (params: ElicitRequestParams, context: { key: string | undefined }): Promise<ElicitResult> => {
    print(`asked [${context.key}] ${params.message}`);
    const fields = Object.keys((params as { requestedSchema: { properties: object } }).requestedSchema.properties);
    const field = fields[0] as keyof typeof answers;
    return { action: "accept", content: { [field]: answers[field] } };
  };
  const client = await Client.connect(createServer(), { onElicit });
  try {
    const result = await client.callTool("provision", { name: "orders" });
    const text = result.content.map((block) => ("text" in block ? block.text : "")).join("");
    print(text);
    return text;
  } finally {
    await client.close();
  }
}
