// The streams of a 2025 session as a client on the wire sees them: a cancelled call's stream ends at
// once and is forgotten; one connection per stream (a GET with Last-Event-ID, or a second GET,
// takes the stream over and the older connection ends, a POST's included); DELETE ends every
// connection of the session.
import { afterEach, describe, expect, it } from "vitest";
import { elicit, McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { measuredServer } from "../support/measured-server.js";
import { EventReader, messagesOf, readEvents, wireClient } from "./session-wire.js";

const regionForm = { type: "object", properties: { region: { type: "string" } }, required: ["region"] } as const;
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function provisioner() {
  const mcp = new McpServer({ name: "session-streams", version: "1.0.0" });
  mcp.tool("echo", { inputSchema: { type: "object" } }, () => text("echo"));
  mcp.resource("config://app", { name: "config" }, () => "v1");
  mcp.tool(
    "provision",
    { inputSchema: { type: "object" }, needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })) },
    (_args, { region }) => text(`in ${region.action === "accept" ? region.content.region : "nowhere"}`),
  );
  // Handlers that ignore their signal: the transport still ends their POSTs when told to.
  mcp.tool("stubborn", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "stubborn", progress: 1 } });
    await sleep(20_000);
    return text("too late");
  });
  mcp.tool("slow", { inputSchema: { type: "object" } }, async () => {
    await sleep(20_000);
    return text("too late");
  });
  return mcp;
}

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

async function session(server = provisioner()) {
  const http = await serveHttp(server);
  handles.push(http);
  const client = wireClient(http.url);
  await client.initialize();
  return client;
}

const call = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
const cancel = (requestId: number) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "the user gave up" } });
const isElicitation = (message: Record<string, unknown>) => message.method === "elicitation/create";

describe("a cancelled 2025 call", () => {
  it("ends its POST stream at once with no answer, and forgets its log", async () => {
    const client = await session();
    const stream = await client.post(call(2, "provision"));
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const reading = readEvents(
      stream,
      () => false,
      async (event) => {
        if (event.data.trim() !== "" && isElicitation(JSON.parse(event.data))) expect((await client.post(cancel(2))).status).toBe(202);
      },
    );
    const events = await reading; // returns once the server ends the stream
    // It ends with the cancellation: the server withdraws the question it asked there, and sends no answer.
    const [question, withdrawn, ...rest] = messagesOf(events);
    expect(question).toMatchObject({ method: "elicitation/create" });
    expect(withdrawn).toMatchObject({ method: "notifications/cancelled", params: { requestId: question!.id } });
    expect(rest).toEqual([]);
    // Nothing is left to resume: the stream's log went with the cancellation.
    expect((await client.get({ "last-event-id": events.at(-1)!.id! })).status).toBe(400);
    expect(await (await client.post(call(3, "echo"))).json()).toEqual({ jsonrpc: "2.0", id: 3, result: text("echo") });
  });

  it("ends its POST even when its handler ignores the cancellation", async () => {
    const client = await session();
    const stream = await client.post(call(2, "stubborn"));
    const events = await readEvents(
      stream,
      () => false,
      async (event) => {
        if (event.data.includes("notifications/progress")) expect((await client.post(cancel(2))).status).toBe(202);
      },
    );
    expect(messagesOf(events).map((message) => message.method)).toEqual(["notifications/progress"]);
    const quiet = client.post(call(3, "slow"));
    await sleep(50);
    expect((await client.post(cancel(3))).status).toBe(202);
    const answered = await quiet;
    expect(answered.status).toBe(202);
    expect(await answered.text()).toBe("");
  });

  it("a session of 1,000 cancelled calls holds less of the server's heap than one of 1,000 completed calls", async () => {
    // The server in a process of its own, so the heap measured is the server's alone, and interpreted only
    // (no compiled code coming and going to blur the figures).
    const server = await measuredServer(
      `
      mcp = new McpServer({ name: "cancel-heap", version: "1.0.0" });
      const form = { type: "object", properties: { region: { type: "string" } }, required: ["region"] };
      mcp.tool("provision", { inputSchema: { type: "object" }, needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: form })) },
        (_args, { region }) => ({ content: [{ type: "text", text: "in " + region.content.region }] }));`,
      {},
      ["--jitless", "--no-flush-bytecode"],
    );
    try {
      /** `count` provision calls in a new session, each answered (`complete`) or cancelled once its question arrived. */
      const run = async (count: number, outcome: "complete" | "cancel") => {
        const client = wireClient(server.url);
        await client.initialize();
        let next = 2;
        const one = async () => {
          const id = next++;
          const stream = await client.post(call(id, "provision"));
          const events = await readEvents(
            stream,
            () => false,
            async (event) => {
              if (event.data.trim() === "") return;
              const message = JSON.parse(event.data) as Record<string, unknown>;
              if (!isElicitation(message)) return;
              const reply = outcome === "cancel" ? cancel(id) : { jsonrpc: "2.0", id: message.id, result: { action: "accept", content: { region: "eu" } } };
              await (await client.post(reply)).text();
            },
          );
          const answered = messagesOf(events).some((message) => message.id === id && ("result" in message || "error" in message));
          expect(answered).toBe(outcome === "complete");
        };
        for (let done = 0; done < count; done += 10) await Promise.all(Array.from({ length: 10 }, one));
        return client;
      };
      for (const outcome of ["complete", "cancel"] as const) await (await run(300, outcome)).delete(); // warm up
      // What a session of 1,000 calls holds until it ends: the heap its DELETE gives back.
      const held = { completed: 0, cancelled: 0 };
      for (const outcome of ["complete", "cancel"] as const) {
        const client = await run(1_000, outcome);
        const open = await server.memory();
        expect((await client.delete()).status).toBe(200);
        held[outcome === "complete" ? "completed" : "cancelled"] = open.heapUsed - (await server.memory()).heapUsed;
      }
      console.log(`server heap a session holds per call (bytes): ${JSON.stringify({ completed: held.completed / 1_000, cancelled: held.cancelled / 1_000 })}`);
      expect(server.stderr()).not.toContain("[mcp-roundtrip http]"); // nothing went wrong on the way
      expect(held.cancelled).toBeLessThan(held.completed);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe("one connection per stream of a 2025 session", () => {
  const updated = { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "config://app" } };

  it("a GET resuming the open GET stream takes it over: the first connection ends, the second gets every update, and DELETE ends it", async () => {
    const server = provisioner();
    const client = await session(server);
    expect((await client.post({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "config://app" } })).status).toBe(200);
    const first = new EventReader(await client.get());
    await first.until(() => first.events.length >= 1); // the priming event
    const second = await client.get({ "last-event-id": first.events[0]!.id! });
    expect(second.status).toBe(200);
    expect(await first.ended).toBe("ended");
    await first.cancel(); // the client closing the old connection changes nothing for the new one
    const resumed = new EventReader(second);
    server.resourceUpdated("config://app");
    server.resourceUpdated("config://app");
    expect(await resumed.until((messages) => messages.length >= 2)).toEqual([updated, updated]);
    expect((await client.delete()).status).toBe(200);
    expect(await resumed.ended).toBe("ended");
  });

  it("a POST stream resumed by a GET: the POST connection ends, the question and the answer arrive on the GET, which then ends", async () => {
    const client = await session();
    const post = new EventReader(await client.post(call(2, "provision")));
    const [question] = await post.until((messages) => messages.some(isElicitation));
    const resumed = new EventReader(await client.get({ "last-event-id": post.events[0]!.id! }));
    expect(await post.ended).toBe("ended");
    expect(messagesOf(post.events)).toEqual([question]); // no answer on the old connection
    expect(await resumed.until((messages) => messages.length >= 1)).toEqual([question]); // replayed
    await client.post({ jsonrpc: "2.0", id: question!.id, result: { action: "accept", content: { region: "eu-west-1" } } });
    expect(await resumed.until((messages) => messages.length >= 2)).toEqual([question, { jsonrpc: "2.0", id: 2, result: text("in eu-west-1") }]);
    expect(await resumed.ended).toBe("ended");
  });

  it("DELETE ends every connection of the session: the GET stream, a streamed call, a call still computing its JSON answer", async () => {
    const client = await session();
    const listening = new EventReader(await client.get());
    const streamed = new EventReader(await client.post(call(2, "provision")));
    await streamed.until((messages) => messages.some(isElicitation));
    const computing = client.post(call(3, "slow"));
    await sleep(50);
    expect((await client.delete()).status).toBe(200);
    expect(await listening.ended).toBe("ended");
    expect(await streamed.ended).toBe("ended");
    const answer = await computing;
    expect(await answer.json()).toMatchObject({
      id: 3,
      error: { code: -32603, message: "The session ended before this request was answered: The client ended the session (HTTP DELETE)." },
    });
  });
});
