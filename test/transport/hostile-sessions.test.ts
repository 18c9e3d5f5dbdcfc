// Issue 36, item 7: the bounds a hostile 2025 client meets over Streamable HTTP, as that client sees
// them on the wire. Calls whose handler waits for an answer stay in flight after their POST drops (by
// design: closing does not cancel), so a session's, and a principal's, calls in flight and the bytes
// they hold are bounded, and the excess gets a clear, retryable 429. Each principal (and the
// anonymous caller) gets a share of the sessions. A session's replay logs are bounded per stream and
// per session, and a resume into what was dropped is refused rather than answered with a stream that
// silently lacks its answer.
import { afterEach, describe, expect, it } from "vitest";
import { elicit, McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { EventReader, INITIALIZE, messagesOf, readEvents, wireClient } from "./session-wire.js";

const regionForm = { type: "object", properties: { region: { type: "string" } }, required: ["region"] } as const;
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function server() {
  const mcp = new McpServer({ name: "hostile", version: "1.0.0" });
  // Asks a question over the call's POST stream and waits for the answer.
  mcp.tool(
    "ask",
    { inputSchema: { type: "object" }, needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })) },
    (_args, { region }) => text(`in ${region.action === "accept" ? region.content.region : "nowhere"}`),
  );
  mcp.tool("echo", { inputSchema: { type: "object" } }, () => text("echo"));
  // Streams a progress note (so the answer comes over SSE), then answers with `size` characters.
  mcp.tool("big", { inputSchema: { type: "object", properties: { size: { type: "number" } } } }, async (args, ctx) => {
    await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "big", progress: 1 } });
    return text("x".repeat(Number(args.size)));
  });
  return mcp;
}

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

async function serve(options: Parameters<typeof serveHttp>[1] = {}) {
  const http = await serveHttp(server(), options);
  handles.push(http);
  return http;
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

/** Starts `ask` and, once its question arrived on the POST's stream, drops the connection: the call keeps waiting. */
async function abandon(client: ReturnType<typeof wireClient>, id: number, args: Record<string, unknown> = {}): Promise<void> {
  const response = await client.post(call(id, "ask", args));
  expect(response.status, await peek(response)).toBe(200);
  const reader = new EventReader(response);
  await reader.until((messages) => messages.some((message) => message.method === "elicitation/create"));
  await reader.cancel();
}

async function peek(response: Response): Promise<string> {
  return response.headers.get("content-type")?.includes("json") ? await response.clone().text() : "";
}

async function expectBusy(response: Response, limit: string, id: number) {
  expect(response.status).toBe(429);
  expect(response.headers.get("retry-after")).toBe("1");
  const body = (await response.json()) as { id: unknown; error: { code: number; message: string; data: Record<string, unknown> } };
  expect(body.id).toBe(id);
  expect(body.error.code).toBe(-32603);
  expect(body.error.data).toEqual({ reason: "temporarily_unavailable", retryAfterSeconds: 1, limit });
  expect(body.error.message).toContain(`(${limit})`);
  expect(body.error.message).toMatch(/send this request again/);
}

describe("calls in flight per 2025 session", () => {
  it("refuses a call beyond maxRequestsPerSession with a retryable 429, and admits one again once a waiting call is cancelled", async () => {
    const http = await serve({ maxRequestsPerSession: 3 });
    const client = wireClient(http.url);
    await client.initialize();
    for (const id of [2, 3, 4]) await abandon(client, id);
    await expectBusy(await client.post(call(5, "echo")), "maxRequestsPerSession", 5);
    // Notifications and answers are never refused: the client can still cancel one of its calls.
    const cancelled = await client.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
    expect(cancelled.status).toBe(202);
    expect(await (await client.post(call(6, "echo"))).json()).toEqual({ jsonrpc: "2.0", id: 6, result: text("echo") });
    // Another session of the same (anonymous) principal is not held to this session's bound.
    const other = wireClient(http.url);
    await other.initialize();
    expect(await (await other.post(call(2, "echo"))).json()).toEqual({ jsonrpc: "2.0", id: 2, result: text("echo") });
  });

  it("refuses a call whose arguments would take the session past maxPendingBytesPerSession", async () => {
    const http = await serve({ maxPendingBytesPerSession: 600_000 });
    const client = wireClient(http.url);
    await client.initialize();
    const heavy = { blob: "a".repeat(256 * 1024) };
    await abandon(client, 2, heavy);
    await abandon(client, 3, heavy);
    await expectBusy(await client.post(call(4, "ask", heavy)), "maxPendingBytesPerSession", 4);
    // A small call still fits.
    expect(await (await client.post(call(5, "echo"))).json()).toEqual({ jsonrpc: "2.0", id: 5, result: text("echo") });
  });

  it("always lets one call through on a session with nothing in flight, however small the budget", async () => {
    const http = await serve({ maxPendingBytesPerSession: 10 });
    const client = wireClient(http.url);
    await client.initialize();
    expect(await (await client.post(call(2, "echo", { note: "longer than ten bytes" }))).json()).toEqual({ jsonrpc: "2.0", id: 2, result: text("echo") });
  });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const verifyToken = (token: string) => ({ clientId: token, scopes: [] });

describe("what one principal may hold", () => {
  it("bounds the calls in flight over all of one principal's sessions, not another principal's", async () => {
    const http = await serve({ verifyToken, maxRequestsPerSession: 2, maxRequestsPerPrincipal: 3 });
    const [first, second] = [wireClient(http.url, bearer("alice")), wireClient(http.url, bearer("alice"))];
    await first.initialize();
    await second.initialize();
    await abandon(first, 2);
    await abandon(first, 3);
    await abandon(second, 2);
    await expectBusy(await second.post(call(3, "ask")), "maxRequestsPerPrincipal", 3);
    const bob = wireClient(http.url, bearer("bob"));
    await bob.initialize();
    await abandon(bob, 2);
  });

  it("bounds the bytes of one principal's calls in flight (maxPendingBytesPerPrincipal)", async () => {
    const http = await serve({ verifyToken, maxPendingBytesPerPrincipal: 600_000 });
    const heavy = { blob: "a".repeat(256 * 1024) };
    const sessions = [wireClient(http.url, bearer("alice")), wireClient(http.url, bearer("alice")), wireClient(http.url, bearer("alice"))];
    for (const session of sessions) await session.initialize();
    await abandon(sessions[0]!, 2, heavy);
    await abandon(sessions[1]!, 2, heavy);
    await expectBusy(await sessions[2]!.post(call(2, "ask", heavy)), "maxPendingBytesPerPrincipal", 2);
  });

  it("gives each principal a share of the sessions: one bearer cannot take them all", async () => {
    const http = await serve({ verifyToken, maxSessions: 20 }); // share by default: a tenth, 2
    for (let i = 0; i < 2; i++) expect((await wireClient(http.url, bearer("alice")).initialize()).status).toBe(200);
    const refused = await wireClient(http.url, bearer("alice")).initialize();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    const body = (await refused.json()) as { id: unknown; error: { message: string } };
    expect(body.id).toBe(INITIALIZE.id);
    expect(body.error.message).toContain("maxSessionsPerPrincipal");
    // Every other principal still opens its own.
    expect((await wireClient(http.url, bearer("bob")).initialize()).status).toBe(200);
  });

  it("counts the anonymous caller as one principal with a share of its own", async () => {
    const http = await serve({ maxSessions: 5, maxSessionsPerPrincipal: 2 });
    expect((await wireClient(http.url).initialize()).status).toBe(200);
    expect((await wireClient(http.url).initialize()).status).toBe(200);
    const refused = await wireClient(http.url).initialize();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("maxSessionsPerPrincipal");
  });

  it("lets an endpoint without authentication, where every caller is anonymous, fill maxSessions by default", async () => {
    const http = await serve({ maxSessions: 3 });
    for (let i = 0; i < 3; i++) expect((await wireClient(http.url).initialize()).status).toBe(200);
    const refused = await wireClient(http.url).initialize();
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("(maxSessions)");
  });

  it("checks the new bounds at construction", async () => {
    for (const name of [
      "maxSessionsPerPrincipal",
      "maxRequestsPerSession",
      "maxRequestsPerPrincipal",
      "maxPendingBytesPerSession",
      "maxPendingBytesPerPrincipal",
      "maxReplayBytesPerSession",
    ]) {
      await expect(serveHttp(server(), { [name]: 0 })).rejects.toThrow(new RegExp(`${name} must be a positive integer`));
    }
  });
});

describe("the replay log of a 2025 session", () => {
  async function finishedBig(client: ReturnType<typeof wireClient>, id: number, size: number) {
    const events = await readEvents(await client.post(call(id, "big", { size })), () => false);
    const answer = messagesOf(events).find((message) => message.id === id) as { result: { content: { text: string }[] } } | undefined;
    expect(answer?.result.content[0]?.text.length).toBe(size); // written to the connection in full
    return events;
  }

  it("never keeps an event larger than a stream's bound: a resume that needs it is refused, not answered without it", async () => {
    const http = await serve({ maxStreamBufferBytes: 128 * 1024 }); // a stream keeps 32 KiB
    const client = wireClient(http.url);
    await client.initialize();
    const events = await finishedBig(client, 2, 50_000);
    const refused = await client.get({ "last-event-id": events[0]!.id! });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/no longer kept.*Send the request again/);
    // An answer within the bound stays resumable.
    const small = await finishedBig(client, 3, 1_000);
    const resumed = await client.get({ "last-event-id": small[0]!.id! });
    expect(resumed.status).toBe(200);
    expect(messagesOf(await readEvents(resumed, () => false)).at(-1)).toMatchObject({ id: 3 });
  });

  it("keeps at most maxReplayBytesPerSession over all a session's streams, forgetting the oldest finished first", async () => {
    const http = await serve({ maxStreamBufferBytes: 128 * 1024, maxReplayBytesPerSession: 40_000 });
    const client = wireClient(http.url);
    await client.initialize();
    const streams = [];
    for (let id = 2; id < 8; id++) streams.push(await finishedBig(client, id, 10_000));
    // Six answers of 10 kB do not fit in 40 kB: the oldest streams are gone, the newest still resumable.
    expect((await client.get({ "last-event-id": streams[0]![0]!.id! })).status).toBe(400);
    const newest = await client.get({ "last-event-id": streams.at(-1)![0]!.id! });
    expect(newest.status).toBe(200);
    expect(messagesOf(await readEvents(newest, () => false)).at(-1)).toMatchObject({ id: 7 });
  });
});
