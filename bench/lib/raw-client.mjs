// The load client of the plain-call rows over HTTP: the same bytes to every
// server (ours, the official SDK, tmcp, the bare floor), written straight on
// keep-alive TCP sockets (`node:net`), one connection per virtual client,
// one request in flight on each (no pipelining). Request bytes are built
// once per tool (head and body around the JSON-RPC id), and every answer is
// parsed (status line, content-length or chunked body, JSON or SSE) and
// checked: the right id, the right text.
//
// Why not `node:http`'s client: its own cost (~100 µs per call, an
// `IncomingMessage`, a `ClientRequest`, an agent and header objects per
// request) was above the servers' it measured, so the client set the pace and
// the floor server idled between calls, which inflated the floor's CPU per
// call and flattered every ratio. This client costs a fraction of the floor
// server's CPU per call (the report prints both per row, and flags a row
// whose client used more than ~80 % of its core: see CLIENT_BOUND_SHARE).
// SDK clients drive the rows that need one (a 2025 server's question).
import { connect } from "node:net";
import { CONFIRM_ANSWER, ECHO_TEXT, confirmedText, toolsCallRequest } from "../workloads/fixtures.mjs";

const ACCEPT = "application/json, text/event-stream";
/** The numbers the `add` tool gets, and the text it must answer. */
export const ADD_ARGUMENTS = Object.freeze({ a: 19, b: 23 });
export const ADD_TEXT = "42";
/** A row whose load client used more than this share of its core is client-bound: its ratios are not judged. */
export const CLIENT_BOUND_SHARE = 0.8;
/** Latencies kept per window for the p50 (a ring: the last ones when a window runs more calls). */
const LATENCY_SLOTS = 1 << 16;

/**
 * A plain `tools/call` client for `url`, alternating the `echo` tool (a
 * string) and the `add` tool (two numbers). `era` "2026-07-28" sends each
 * call with the `_meta` envelope and the MCP headers (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`); "2025-11-25" with `session` (the default) opens
 * a session first (`initialize`, `notifications/initialized`) and sends each
 * call with its `Mcp-Session-Id`, without `session` sends bare 2025 calls
 * (a client of a stateless server). With `mrtr`, each call is the confirm
 * tool's two rounds (2026-07-28 only): the first answers `input_required`
 * with a sealed `requestState`, the second echoes it with the answer.
 * @param {string} url
 * @param {{ era: "2026-07-28" | "2025-11-25", session?: boolean, mrtr?: boolean, echoOnly?: boolean }} options
 *   `echoOnly`: only the echo tool (for a server that has no `add`)
 * @returns {Promise<{ call(): Promise<string>, close(): void, protocolVersion: string, startLatencies(): void, latencyP50(): number | undefined }>}
 * @throws {Error} when the server answers anything but the expected text.
 */
export async function rawToolsClient(url, { era, session = true, mrtr = false, echoOnly = false }) {
  const target = new URL(url);
  const pool = new ConnectionPool(target.hostname, Number(target.port));
  const requestLine = `POST ${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\ncontent-type: application/json\r\naccept: ${ACCEPT}\r\n`;
  let protocolVersion = era;
  let extraHeaders = "";
  if (era !== "2026-07-28" && session) {
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: era, capabilities: {}, clientInfo: { name: "bench-client", version: "1.0.0" } },
    };
    const opened = await pool.post(`${requestLine}`, JSON.stringify(initialize));
    const sessionId = opened.header("mcp-session-id");
    protocolVersion = messageOf(opened)?.result?.protocolVersion;
    if (!sessionId || !protocolVersion) throw new Error(`initialize opened no session: HTTP ${opened.status} ${opened.text().slice(0, 200)}`);
    extraHeaders = `mcp-session-id: ${sessionId}\r\nmcp-protocol-version: ${protocolVersion}\r\n`;
    const initialized = await pool.post(`${requestLine}${extraHeaders}`, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    if (initialized.status !== 202) throw new Error(`notifications/initialized answered HTTP ${initialized.status}`);
  } else if (era !== "2026-07-28") {
    extraHeaders = `mcp-protocol-version: ${era}\r\n`;
  }
  const modern = era === "2026-07-28";
  /** One tool's request: its head (request line and headers) and its body around the id, built once. */
  const tool = (name, args, expected) => {
    const head = modern ? `${requestLine}mcp-protocol-version: ${era}\r\nmcp-method: tools/call\r\nmcp-name: ${name}\r\n` : `${requestLine}${extraHeaders}`;
    const request = modern ? toolsCallRequest(0) : { jsonrpc: "2.0", id: 0, method: "tools/call", params: { name, arguments: args } };
    request.params.name = name;
    request.params.arguments = args;
    const [before, after] = JSON.stringify(request).split('"id":0');
    return { head, before: `${before}"id":`, after, expected };
  };
  const latencies = new Float64Array(LATENCY_SLOTS);
  let recorded = -1;
  let id = 0;
  const send = async (spec, extra = "") => {
    const callId = ++id;
    const body = `${spec.before}${callId}${spec.after}${extra}`;
    const answer = await pool.post(spec.head, body);
    const message = messageOf(answer);
    if (message?.id !== callId) throw new Error(`expected the answer to id ${callId}, got HTTP ${answer.status} ${answer.text().slice(0, 200)}`);
    return message;
  };
  const timed = (call) => async () => {
    if (recorded < 0) return call();
    const started = performance.now();
    const text = await call();
    latencies[recorded++ & (LATENCY_SLOTS - 1)] = performance.now() - started;
    return text;
  };
  const latencyControls = {
    startLatencies() {
      recorded = 0;
    },
    latencyP50() {
      if (recorded <= 0) return undefined;
      const kept = latencies.slice(0, Math.min(recorded, LATENCY_SLOTS)).sort();
      return kept[kept.length >> 1];
    },
  };

  if (mrtr) {
    if (!modern) throw new RangeError("rawToolsClient: MRTR rounds are a 2026-07-28 call");
    const confirm = tool("confirm", { text: ECHO_TEXT }, confirmedText(ECHO_TEXT));
    // Round two: the same request with the answer and the echoed state after the id (the params object stays last).
    const retry = { ...confirm, after: confirm.after.replace(/}}$/, "") };
    return {
      protocolVersion,
      call: timed(async () => {
        const asked = (await send(confirm))?.result;
        if (asked?.resultType !== "input_required" || typeof asked.requestState !== "string" || !asked.inputRequests?.confirm) {
          throw new Error(`expected input_required with a requestState, got ${JSON.stringify(asked).slice(0, 200)}`);
        }
        const extra = `,"inputResponses":${JSON.stringify({ confirm: CONFIRM_ANSWER })},"requestState":${JSON.stringify(asked.requestState)}}}`;
        const text = (await send(retry, extra))?.result?.content?.[0]?.text;
        if (text !== confirm.expected) throw new Error(`expected "${confirm.expected}", got ${JSON.stringify(text)}`);
        return text;
      }),
      close: () => pool.close(),
      ...latencyControls,
    };
  }
  const tools = echoOnly ? [tool("echo", { text: ECHO_TEXT }, ECHO_TEXT)] : [tool("echo", { text: ECHO_TEXT }, ECHO_TEXT), tool("add", ADD_ARGUMENTS, ADD_TEXT)];
  let turn = 0;
  return {
    protocolVersion,
    call: timed(async () => {
      const spec = tools[turn++ % tools.length];
      const message = await send(spec);
      const text = message?.result?.content?.[0]?.text;
      if (text !== spec.expected) throw new Error(`expected "${spec.expected}", got ${JSON.stringify(message).slice(0, 200)}`);
      // The workload's check reads the echo's text: every answer was checked against its own tool here.
      return ECHO_TEXT;
    }),
    close: () => pool.close(),
    ...latencyControls,
  };
}

/** Keep-alive connections to one server: an idle one is reused, a new one opened when all are busy. */
class ConnectionPool {
  constructor(host, port) {
    this.host = host;
    this.port = port;
    /** @type {Connection[]} */
    this.idle = [];
    /** @type {Set<Connection>} */
    this.all = new Set();
  }

  /** Sends one request (`head` ends with its headers' last CRLF) and resolves its answer. */
  async post(head, body) {
    let connection = this.idle.pop();
    // A connection the server closed while idle (its keep-alive timeout) is dropped, not reused.
    while (connection?.closed) connection = this.idle.pop();
    connection ??= await this.open();
    try {
      const answer = await connection.exchange(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      if (answer.keepAlive) this.idle.push(connection);
      else this.drop(connection);
      return answer;
    } catch (error) {
      this.drop(connection);
      throw error;
    }
  }

  open() {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port, noDelay: true });
      socket.once("connect", () => {
        socket.off("error", reject);
        const connection = new Connection(socket);
        this.all.add(connection);
        resolve(connection);
      });
      socket.once("error", reject);
    });
  }

  drop(connection) {
    this.all.delete(connection);
    connection.socket.destroy();
  }

  close() {
    for (const connection of this.all) connection.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }
}

const CRLFCRLF = Buffer.from("\r\n\r\n");

/** One keep-alive connection with at most one request in flight, and a parser for its answers. */
class Connection {
  constructor(socket) {
    this.socket = socket;
    /** @type {Buffer | undefined} bytes of the answer so far */
    this.buffer = undefined;
    this.resolve = undefined;
    this.reject = undefined;
    this.closed = false;
    socket.on("data", (chunk) => this.onData(chunk));
    socket.on("error", (error) => this.fail(error));
    // The server's FIN (its keep-alive timeout on a connection left idle, as an interleaved set leaves a member's
    // while the others warm up): never written to again, even before the socket closes.
    socket.on("end", () => {
      this.closed = true;
    });
    socket.on("close", () => {
      this.closed = true;
      this.fail(new Error("the server closed the connection"));
    });
  }

  exchange(bytes) {
    if (this.closed) return Promise.reject(new Error("the server closed the connection"));
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.buffer = undefined;
      this.socket.write(bytes);
    });
  }

  fail(error) {
    const reject = this.reject;
    this.resolve = this.reject = undefined;
    reject?.(error);
  }

  onData(chunk) {
    const buffer = this.buffer === undefined ? chunk : Buffer.concat([this.buffer, chunk]);
    const answer = parseAnswer(buffer);
    if (answer === undefined) {
      this.buffer = buffer;
      return;
    }
    this.buffer = undefined;
    const resolve = this.resolve;
    this.resolve = this.reject = undefined;
    if (answer instanceof Error) {
      this.socket.destroy();
      this.fail(answer);
      return;
    }
    resolve?.(answer);
  }
}

/** A complete HTTP/1.1 answer in `buffer`, `undefined` while it is incomplete, an Error when it cannot be read. */
function parseAnswer(buffer) {
  const end = buffer.indexOf(CRLFCRLF);
  if (end === -1) return undefined;
  const head = buffer.latin1Slice(0, end);
  const status = Number(head.slice(9, 12));
  const lower = head.toLowerCase();
  const bodyStart = end + 4;
  let body;
  const length = /\r\ncontent-length: *(\d+)/.exec(lower);
  if (length !== null) {
    const bodyEnd = bodyStart + Number(length[1]);
    if (buffer.length < bodyEnd) return undefined;
    if (buffer.length > bodyEnd) return new Error("bytes after the answer on a connection with one request in flight");
    body = buffer.utf8Slice(bodyStart, bodyEnd);
  } else if (/\r\ntransfer-encoding: *chunked/.test(lower)) {
    body = dechunk(buffer, bodyStart);
    if (body === undefined) return undefined;
  } else if (status === 204 || status === 304) {
    body = "";
  } else {
    return new Error(`an answer without content-length or chunked encoding (HTTP ${status})`);
  }
  return new Answer(status, head, lower, body);
}

/** The body of a chunked answer from `start`, or `undefined` until its last chunk arrived. */
function dechunk(buffer, start) {
  const parts = [];
  let at = start;
  for (;;) {
    const line = buffer.indexOf("\r\n", at, "latin1");
    if (line === -1) return undefined;
    const size = Number.parseInt(buffer.latin1Slice(at, line), 16);
    if (size === 0) return buffer.indexOf("\r\n\r\n", line, "latin1") === line ? Buffer.concat(parts).toString("utf8") : undefined;
    const dataEnd = line + 2 + size;
    if (buffer.length < dataEnd + 2) return undefined;
    parts.push(buffer.subarray(line + 2, dataEnd));
    at = dataEnd + 2;
  }
}

class Answer {
  constructor(status, head, lower, body) {
    this.status = status;
    this.head = head;
    this.lower = lower;
    this.body = body;
    this.keepAlive = !/\r\nconnection: *close/.test(lower);
  }

  header(name) {
    const match = new RegExp(`\\r\\n${name}: *([^\\r]*)`).exec(this.lower);
    if (match === null) return undefined;
    // Values keep their case: read them from the original head at the same offset.
    const at = match.index + match[0].length - match[1].length;
    return this.head.slice(at, at + match[1].length);
  }

  text() {
    return this.body;
  }
}

/** The JSON-RPC message of a JSON answer, or of the last `data:` line of an SSE one. */
function messageOf(answer) {
  const text = answer.body;
  if (answer.lower.includes("\r\ncontent-type: text/event-stream")) {
    const data = text.split("\n").findLast((line) => line.startsWith("data:"));
    return data === undefined ? undefined : JSON.parse(data.slice(5));
  }
  return text === "" ? undefined : JSON.parse(text);
}
