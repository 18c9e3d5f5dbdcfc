// Session-id and Last-Event-ID fuzzing (issue 36, item 6): live 2025
// sessions, each with finished response streams in its replay log, then
// mutated `Mcp-Session-Id` values (POST a call) and mutated `Last-Event-ID`
// values (GET, resuming) against them: in process through
// `createHttpHandler`, then a few thousand over HTTP through `serveHttp`.
// Counted: a request answered in a session whose id it did not carry
// exactly (joined), an event replayed that is not of the session and stream
// the id names, or not after it (wrong stream), and crashes (a 5xx, a
// handler that threw, an error reported to onError).
import { serveHttp } from "mcp-roundtrip/node";
import { createHttpHandler, McpServer } from "mcp-roundtrip/server";
import { mutateEventId, mutateSessionId } from "./fuzz-mutate.js";
import { Random } from "./random.js";

/** How to fuzz. */
export interface FuzzOptions {
  /** Mutated values sent in process. */
  mutations: number;
  /** Of which also over HTTP (127.0.0.1). */
  http: number;
  seed: number;
  log?: (line: string) => void;
}

/** What the fuzz found. */
export interface FuzzReport {
  sent: number;
  overHttp: number;
  /** Values no HTTP client can send (a header with a character outside Latin-1): refused before any request. */
  unsendable: number;
  statuses: Record<number, number>;
  /** Requests answered in their own session (the id unchanged, or only padded): the oracle's positive side. */
  ownSession: number;
  /** Events replayed after a Last-Event-ID, each checked to be of the session and stream it names. */
  replayed: number;
  joined: number;
  wrongStream: number;
  crashes: number;
  details: string[];
  ok: boolean;
  line: string;
}

interface Session {
  id: string;
  name: string;
  events: string[];
}

type Send = (method: string, headers: Record<string, string>, body?: string) => Promise<Response>;

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
const SESSIONS = 8;

function server(): McpServer {
  const mcp = new McpServer({ name: "fuzz", version: "1.0.0" });
  // Streams one note, then answers: both name the session (its client's name), so a stray event shows whose it is.
  mcp.tool("mark", {}, async (_args, ctx) => {
    await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `note of ${ctx.clientInfo?.name}` } });
    return { content: [{ type: "text", text: `session ${ctx.clientInfo?.name}` }] };
  });
  mcp.tool("who", {}, (_args, ctx) => ({ content: [{ type: "text", text: `session ${ctx.clientInfo?.name}` }] }));
  return mcp;
}

/** Reads an SSE or JSON body: the events (id and data) it carries, within `idleMs` of quiet. */
async function eventsOf(response: Response, idleMs: number): Promise<{ id: string | undefined; data: string }[]> {
  if (!response.headers.get("content-type")?.includes("text/event-stream")) return [{ id: undefined, data: await response.text() }];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<{ done: true; value: undefined }>((resolve) => (timer = setTimeout(() => resolve({ done: true, value: undefined }), idleMs)));
    const chunk = await Promise.race([reader.read(), idle]);
    clearTimeout(timer);
    if (chunk.done) break;
    text += chunk.value;
  }
  await reader.cancel().catch(() => {});
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => ({
      id: /^id: ?(.*)$/m.exec(block)?.[1],
      data: block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join(""),
    }));
}

const call = (id: number, name: string) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });

/** Opens the live sessions, each with three finished streams in its log. */
async function openSessions(send: Send): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let k = 0; k < SESSIONS; k++) {
    const name = `fuzz-${k}`;
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name, version: "1" } } };
    const response = await send("POST", HEADERS, JSON.stringify(init));
    const id = response.headers.get("mcp-session-id");
    await response.body?.cancel();
    if (id === null) throw new Error(`fuzz: initialize opened no session (HTTP ${response.status})`);
    const headers = { ...HEADERS, "mcp-session-id": id };
    await (await send("POST", headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).body?.cancel();
    const events: string[] = [];
    for (let n = 2; n < 5; n++) for (const event of await eventsOf(await send("POST", headers, call(n, "mark")), 1_000)) if (event.id) events.push(event.id);
    if (events.length === 0) throw new Error("fuzz: the sessions' calls streamed no events with ids");
    sessions.push({ id, name, events });
  }
  return sessions;
}

const sessionNamed = (text: string) => /(?:session|note of) (fuzz-\d+)/.exec(text)?.[1];

/** Sends `count` mutated values through `send`, adding what it finds to `report`. */
async function fuzz(send: Send, sessions: Session[], count: number, random: Random, report: FuzzReport): Promise<void> {
  const finding = (what: string) => void (report.details.length < 10 && report.details.push(what));
  for (let i = 0; i < count; i++) {
    const victim = sessions[random.int(0, sessions.length - 1)]!;
    const other = sessions[random.int(0, sessions.length - 1)]!;
    const bySessionId = random.next() < 0.5;
    const value = bySessionId
      ? mutateSessionId(victim.id, other.id, random)
      : mutateEventId(victim.events[random.int(0, victim.events.length - 1)]!, other.events[random.int(0, other.events.length - 1)]!, random);
    let response: Response;
    try {
      response = bySessionId
        ? await send("POST", { ...HEADERS, "mcp-session-id": value }, call(9, "who"))
        : await send("GET", { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25", "mcp-session-id": victim.id, "last-event-id": value });
    } catch (error) {
      // A header value outside Latin-1 (or with a newline) cannot be sent; nothing reached the server.
      if (error instanceof TypeError && /header|ByteString|invalid/i.test(`${error.message} ${String(error.cause)}`)) {
        report.unsendable++;
        continue;
      }
      report.crashes++;
      finding(`${bySessionId ? "session id" : "Last-Event-ID"} ${JSON.stringify(value.slice(0, 60))}: ${(error as Error).message}`);
      continue;
    }
    report.sent++;
    report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
    if (response.status >= 500) {
      report.crashes++;
      finding(`HTTP ${response.status} for ${JSON.stringify(value.slice(0, 60))}`);
    }
    const events = await eventsOf(response, 20);
    if (bySessionId) {
      // Answered in a session: only the one whose id the request carried, exactly.
      const named = sessionNamed(events.map((event) => event.data).join(" "));
      const owner = sessions.find((session) => session.name === named);
      // A field value's surrounding spaces and tabs are not part of it (RFC 9110 §5.5): " id " is the id.
      if (owner !== undefined && owner.id !== value.replace(/^[ \t]+|[ \t]+$/g, "")) {
        report.joined++;
        finding(`session id ${JSON.stringify(value.slice(0, 60))} was answered in ${owner.name}'s session`);
      } else if (owner !== undefined) report.ownSession++;
    } else if (response.status === 200) {
      // Replayed events: all of the victim's session, of the stream the id names, after it.
      const asked = /^(\d+)-(\d+)$/.exec(value.trim());
      for (const event of events) {
        if (event.id !== undefined && event.id !== "") report.replayed++;
        const named = sessionNamed(event.data);
        const id = /^(\d+)-(\d+)$/.exec(event.id ?? "");
        const sameStream = asked !== null && id !== null && Number(id[1]) === Number(asked[1]) && Number(id[2]) > Number(asked[2]);
        if ((named !== undefined && named !== victim.name) || (event.id !== undefined && event.id !== "" && !sameStream)) {
          report.wrongStream++;
          finding(`Last-Event-ID ${JSON.stringify(value.slice(0, 60))} in ${victim.name}'s session replayed ${event.id} ${event.data.slice(0, 80)}`);
        }
      }
    }
  }
}

/** Runs the fuzz: `mutations` in process, then `http` of them over HTTP on 127.0.0.1. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => {});
  const report: FuzzReport = {
    sent: 0,
    overHttp: 0,
    unsendable: 0,
    statuses: {},
    ownSession: 0,
    replayed: 0,
    joined: 0,
    wrongStream: 0,
    crashes: 0,
    details: [],
    ok: false,
    line: "",
  };
  const onError = (error: unknown) => {
    report.crashes++;
    if (report.details.length < 10) report.details.push(`onError: ${(error as Error)?.message ?? String(error)}`);
  };
  const random = new Random(options.seed);
  const handler = createHttpHandler(server(), { onError });
  const inProcess: Send = (method, headers, body) => handler(new Request("http://127.0.0.1/mcp", { method, headers, ...(body === undefined ? {} : { body }) }));
  const started = Date.now();
  const sessions = await openSessions(inProcess);
  const batch = 50_000;
  for (let done = 0; done < options.mutations; done += batch) {
    await fuzz(inProcess, sessions, Math.min(batch, options.mutations - done), random, report);
    log(`fuzz: ${Math.min(options.mutations, done + batch)} in process, ${report.joined} joined, ${report.wrongStream} wrong stream, ${report.crashes} crashes`);
  }
  handler.close();
  const inProcessMs = Date.now() - started;
  const http = await serveHttp(server(), { host: "127.0.0.1", port: 0, onError });
  try {
    const overHttp: Send = (method, headers, body) => fetch(http.url, { method, headers, ...(body === undefined ? {} : { body }) });
    const before = report.sent;
    await fuzz(overHttp, await openSessions(overHttp), options.http, random, report);
    report.overHttp = report.sent - before;
  } finally {
    await http.close({ graceMs: 0 });
  }
  report.ok = report.joined === 0 && report.wrongStream === 0 && report.crashes === 0;
  report.line =
    `fuzz: ${report.sent} mutated values sent (${report.overHttp} over HTTP, ${report.unsendable} unsendable), ` +
    `${report.joined} joined to another session, ${report.wrongStream} replayed to the wrong stream, ${report.crashes} crashes ` +
    `(${report.ownSession} answered in their own session, ${report.replayed} events replayed and checked; ` +
    `${(inProcessMs / 1000).toFixed(0)} s in process; statuses ${JSON.stringify(report.statuses)})`;
  for (const detail of report.details) log(`fuzz finding: ${detail}`);
  return report;
}
