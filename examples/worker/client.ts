// An MCP client inside a module worker: `GET /?server=<url>&code=…` connects
// to the trip planner at <url> (examples/worker/worker.ts, anywhere) over
// Streamable HTTP with mcp-roundtrip/client (Client and StreamableHttpClientTransport)
// (nothing from node:), plans a trip, answering the confirmation itself, and
// responds with the tool's result as JSON. A worker that calls tools on
// behalf of its own users looks like this.
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";

export default {
  /** Plans one trip on the server named by `?server=`; 400 without one. */
  async fetch(request: Request): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const server = query.get("server");
    if (server === null) return new Response("Pass ?server=<the MCP endpoint's URL>.\n", { status: 400 });
    let questions = 0;
    const client = await Client.connect(new StreamableHttpClientTransport(server), {
      clientInfo: { name: "worker-client", version: "1.0.0" },
      onElicit: async () => {
        questions++;
        return { action: "accept", content: { seat: query.get("seat") ?? "aisle" } };
      },
    });
    try {
      const legs = [
        [
          [4.9, 52.4],
          [-9.1, 38.7],
        ],
      ]; // Amsterdam to Lisbon, as [longitude, latitude] points
      const result = await client.callTool("plan_trip", { code: query.get("code") ?? "AMS-01", travellers: 1, legs });
      return Response.json({ protocolVersion: client.protocolVersion, questions, result });
    } finally {
      await client.close();
    }
  },
};
