// Bundled for the browser by test/browser: an McpServer and a Client in one
// page, in memory. The tool's inputSchema goes beyond the simple subset (a
// pattern, a minimum, nested arrays) and it asks by elicitation, so the
// page runs the eval-free validator and seals requestState with the
// portable crypto backend. The outcome goes to `window.inPage`.
import { Client } from "mcp-roundtrip/client";
import { McpServer, RequestStateSecurity, elicit } from "mcp-roundtrip/server";

const security = new RequestStateSecurity({ keys: ["in-page-test-key-in-page-test-key-0123"] }, { audience: "in-page" });
const server = new McpServer({ name: "in-page", version: "1.0.0" }, { requestStateSecurity: security });
server.tool(
  "route",
  {
    inputSchema: {
      type: "object",
      properties: {
        code: { type: "string", pattern: "^[A-Z]{3}$" },
        seats: { type: "integer", minimum: 1 },
        legs: { type: "array", items: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 2 } },
      },
      required: ["code", "seats", "legs"],
    },
    needs: (need) => need.add("ok", () => elicit({ message: "Go?", schema: { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } })),
  },
  (args, { ok }) => ({
    content: [
      {
        type: "text",
        text: `${String(args.code)} ×${String(args.seats)} ${ok.action === "accept" && ok.content.yes ? "confirmed" : "dropped"}, sealed with ${security.crypto}`,
      },
    ],
  }),
);

const client = await Client.connect(server, { onElicit: async () => ({ action: "accept", content: { yes: true } }) });
const good = await client.callTool("route", { code: "ABC", seats: 2, legs: [["a", "b"]] });
const bad = await client.callTool("route", { code: "abc", seats: 0, legs: [["a"]] });
const first = await client.session.callTool("route", { code: "XYZ", seats: 1, legs: [] }, { allowInputRequired: true });
await client.close();
(window as unknown as { inPage: unknown }).inPage = {
  good: good.content,
  bad: { isError: bad.isError, content: bad.content },
  token: "requestState" in first ? first.requestState : undefined,
};
