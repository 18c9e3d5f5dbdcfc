// A 2025 client whose answer to the server's question is refused with 404
// for its session (behind a load balancer, the answer reached an instance
// that does not hold the session: an instance restarted, routing moved):
// the server that asked never hears the answer, so the call must not wait
// for it. The client starts a new session and sends the call again, as the
// 2025-11-25 transport says to do on a 404; found by the fleet drill, where
// such calls hung until the caller's own timeout. An answer a proxy lost (502,
// 503, 504, no response) is sent again twice, then fails the call.
import { afterEach, describe, expect, it } from "vitest";
import { Client, SessionExpired, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { elicit, McpServer } from "mcp-roundtrip/server";

const form = { type: "object", properties: { region: { type: "string" } }, required: ["region"] } as const;

function server(): McpServer {
  const mcp = new McpServer({ name: "asks", version: "1.0.0" });
  mcp.tool("deploy", { needs: (need) => need.add("region", () => elicit({ message: "Region?", schema: form })) }, (_args, { region }) => ({
    content: [{ type: "text", text: `deployed to ${String(region.content?.region)}` }],
  }));
  return mcp;
}

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ graceMs: 0 });
});

/** Two instances; the first `misrouted` answers the client posts go to the one that does not hold its session. */
async function misroutingClient(misrouted: number) {
  const home = await serveHttp(server(), { host: "127.0.0.1", port: 0 });
  const elsewhere = await serveHttp(server(), { host: "127.0.0.1", port: 0 });
  handles.push(home, elsewhere);
  let left = misrouted;
  const route: typeof fetch = (input, init) => {
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string; result?: unknown }) : undefined;
    const isAnswer = body !== undefined && body.method === undefined && body.result !== undefined;
    if (isAnswer && left > 0) {
      left--;
      return fetch(elsewhere.url, init);
    }
    return fetch(input, init);
  };
  return Client.connect(new StreamableHttpClientTransport(home.url, { fetch: route, onWarning: () => {} }), {
    mode: "2025-11-25",
    onElicit: () => ({ action: "accept", content: { region: "eu-west-1" } }),
  });
}

describe("an answer refused with 404 for the session (2025 over HTTP)", () => {
  it("the call is sent again in a new session and completes, the question asked again", async () => {
    const client = await misroutingClient(1);
    const result = await client.callTool("deploy", {}, { signal: AbortSignal.timeout(10_000) });
    expect(result.content).toEqual([{ type: "text", text: "deployed to eu-west-1" }]);
    await client.close();
  });

  it("when the new session loses the answer too, the call fails with SessionExpired instead of waiting", async () => {
    const client = await misroutingClient(2);
    await expect(client.callTool("deploy", {}, { signal: AbortSignal.timeout(10_000) })).rejects.toBeInstanceOf(SessionExpired);
    await client.close();
  });
});

describe("an answer a proxy could not deliver (502, 503, 504 or no response)", () => {
  async function failingAnswers(failures: number) {
    const home = await serveHttp(server(), { host: "127.0.0.1", port: 0 });
    handles.push(home);
    let left = failures;
    const route: typeof fetch = (input, init) => {
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string; result?: unknown }) : undefined;
      if (body !== undefined && body.method === undefined && body.result !== undefined && left > 0) {
        left--;
        return Promise.resolve(new Response("Bad Gateway", { status: 502 })); // the proxy lost it on its way
      }
      return fetch(input, init);
    };
    return Client.connect(new StreamableHttpClientTransport(home.url, { fetch: route, onWarning: () => {} }), {
      mode: "2025-11-25",
      onElicit: () => ({ action: "accept", content: { region: "eu-west-1" } }),
    });
  }

  it("is sent again, and the call completes", async () => {
    const client = await failingAnswers(2);
    const result = await client.callTool("deploy", {}, { signal: AbortSignal.timeout(10_000) });
    expect(result.content).toEqual([{ type: "text", text: "deployed to eu-west-1" }]);
    await client.close();
  });

  it("after three failed tries the call fails, naming what happened, instead of waiting", async () => {
    const client = await failingAnswers(3);
    await expect(client.callTool("deploy", {}, { signal: AbortSignal.timeout(10_000) })).rejects.toThrow(
      "Could not deliver the answer to the server's elicitation/create request (HTTP 502, 3 tries): the call cannot complete; send it again.",
    );
    await client.close();
  });
});
