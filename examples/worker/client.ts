// An MCP client inside a module worker: `GET /?server=<url>&code=…` connects
// to the flight desk at <url> over Streamable HTTP (mcp-roundtrip/client with
// mcp-roundtrip/http/client, nothing from node:), books a one-leg trip,
// confirming the elicitation itself, and answers with the tool's result as
// JSON. A worker that calls tools on behalf of its own users looks like this.
import { Client } from "mcp-roundtrip/client";
import { StreamableHttpClientTransport } from "mcp-roundtrip/http/client";

export default {
  /** Runs one booking against the server named by `?server=`; 400 without one. */
  async fetch(request: Request): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const server = query.get("server");
    if (server === null) return new Response("Pass ?server=<the MCP endpoint's URL>.\n", { status: 400 });
    let rounds = 0;
    const client = await Client.connect(new StreamableHttpClientTransport(server), {
      clientInfo: { name: "worker-client", version: "1.0.0" },
      onElicit: async () => {
        rounds++;
        return { action: "accept", content: { confirm: true, cabin: "economy" } };
      },
    });
    try {
      const result = await client.callTool("book_flight", {
        code: query.get("code") ?? "WRK-01",
        seats: 1,
        legs: [[query.get("from") ?? "AMS", query.get("to") ?? "LIS"]],
      });
      return Response.json({ protocolVersion: client.protocolVersion, questions: rounds, result });
    } finally {
      await client.close();
    }
  },
};
