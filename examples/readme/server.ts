// README "A server": one tool that asks by hand with inputRequired(...), one
// that declares what it needs and lets the SDK ask.
import { McpServer, elicit, inputRequired } from "mcp-roundtrip/server";

const confirmForm = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;
const regionForm = { type: "object", properties: { region: { type: "string", enum: ["eu-west-1", "us-east-1"] } }, required: ["region"] } as const;

/** Builds the README's server: `deploy` asks by hand, `provision` declares its needs. */
export function createServer(): McpServer {
  const server = new McpServer({ name: "readme-server", version: "1.0.0" });

  // By hand: return an InputRequiredResult; the retry carries the answer under the same key.
  // The inputSchema types args: args.app is a string.
  server.tool("deploy", { inputSchema: { type: "object", properties: { app: { type: "string" } }, required: ["app"] } }, (args, ctx) => {
    const answer = ctx.inputResponses?.confirm as { action: string; content?: { yes?: boolean } } | undefined;
    if (answer === undefined) {
      return inputRequired({
        inputRequests: { confirm: { method: "elicitation/create", params: { message: `Deploy ${args.app}?`, requestedSchema: confirmForm } } },
        requestState: "awaiting-confirm", // sealed before it leaves the server
      });
    }
    const go = answer.action === "accept" && answer.content?.yes === true;
    return { content: [{ type: "text", text: go ? `Deployed ${args.app}.` : "Not deployed." }] };
  });

  // Declared: the SDK asks, keeps answers in the sealed state, and runs the body once all are in.
  server.tool(
    "provision",
    {
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })),
    },
    (args, { region }) => {
      const where = region.action === "accept" ? region.content.region : "nowhere";
      return { content: [{ type: "text", text: `Provisioned ${args.name} in ${where}.` }] };
    },
  );
  return server;
}
