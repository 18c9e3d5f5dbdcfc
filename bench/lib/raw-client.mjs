// The load client of the plain-call rows over HTTP: the same bytes to every
// server (ours, the official SDK, tmcp, the bare echo), straight on
// `node:http` with a keep-alive agent, every answer parsed (JSON or SSE) and
// checked. The budgets judge each server's CPU time per call, and a server's
// CPU per call depends on how busy its client keeps it (a busier server
// answers more requests per wake-up): one client for all keeps the figure
// about the server. SDK clients drive the rows that need one (MRTR rounds,
// a 2025 server's question).
import { Agent, request } from "node:http";
import { CONFIRM_ANSWER, ECHO_TEXT, confirmedText, toolsCallRequest } from "../workloads/fixtures.mjs";

const ACCEPT = "application/json, text/event-stream";

/**
 * A plain `tools/call` client for `url`: `era` "2026-07-28" sends each call
 * with the `_meta` envelope and the MCP headers; "2025-11-25" opens a session
 * first (`initialize`, `notifications/initialized`) and sends each call with
 * its `Mcp-Session-Id`.
 * @param {string} url
 * With `mrtr`, each call is the confirm tool's two rounds (2026-07-28 only): the first
 * answers `input_required` with a sealed `requestState`, the second echoes it with the answer.
 * @param {{ era: "2026-07-28" | "2025-11-25", mrtr?: boolean, maxSockets?: number }} options
 * @returns {Promise<{ call(): Promise<string>, close(): void, protocolVersion: string }>}
 * @throws {Error} when the server answers anything but the echoed text.
 */
export async function rawToolsClient(url, { era, mrtr = false, maxSockets = 64 }) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const target = new URL(url);
  const post = (headers, body) =>
    new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          agent,
          headers: { ...headers, "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  const base = { "content-type": "application/json", accept: ACCEPT };
  let headers;
  let protocolVersion = era;
  let body;
  if (era === "2026-07-28") {
    headers = { ...base, "mcp-protocol-version": era, "mcp-method": "tools/call", "mcp-name": "echo" };
    body = (id) => JSON.stringify(toolsCallRequest(id));
  } else {
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: era, capabilities: {}, clientInfo: { name: "bench-client", version: "1.0.0" } },
    };
    const opened = await post(base, JSON.stringify(initialize));
    const sessionId = opened.headers["mcp-session-id"];
    protocolVersion = messageOf(opened)?.result?.protocolVersion;
    if (typeof sessionId !== "string" || !protocolVersion) throw new Error(`initialize opened no session: HTTP ${opened.status} ${opened.text.slice(0, 200)}`);
    headers = { ...base, "mcp-session-id": sessionId, "mcp-protocol-version": protocolVersion };
    const initialized = await post(headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    if (initialized.status !== 202) throw new Error(`notifications/initialized answered HTTP ${initialized.status}`);
    const args = { text: ECHO_TEXT };
    body = (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: args } });
  }
  let id = 0;
  if (mrtr) {
    if (era !== "2026-07-28") throw new RangeError("rawToolsClient: MRTR rounds are a 2026-07-28 call");
    // The confirm tool: round one answers input_required with a sealed requestState, round two echoes it with the answer.
    const mrtrHeaders = { ...headers, "mcp-name": "confirm" };
    const args = { text: ECHO_TEXT };
    const expected = confirmedText(ECHO_TEXT);
    const round = (inputResponses, requestState) => {
      const request = toolsCallRequest(++id);
      request.params.name = "confirm";
      request.params.arguments = args;
      if (requestState !== undefined) Object.assign(request.params, { inputResponses, requestState });
      return post(mrtrHeaders, JSON.stringify(request));
    };
    return {
      protocolVersion,
      async call() {
        const first = messageOf(await round());
        const asked = first?.result;
        if (asked?.resultType !== "input_required" || typeof asked.requestState !== "string" || !asked.inputRequests?.confirm) {
          throw new Error(`expected input_required with a requestState, got ${JSON.stringify(first).slice(0, 200)}`);
        }
        const second = await round({ confirm: CONFIRM_ANSWER }, asked.requestState);
        const text = messageOf(second)?.result?.content?.[0]?.text;
        if (text !== expected) throw new Error(`expected "${expected}", got HTTP ${second.status} ${second.text.slice(0, 200)}`);
        return text;
      },
      close: () => agent.destroy(),
    };
  }
  return {
    protocolVersion,
    async call() {
      const answer = await post(headers, body(++id));
      const text = messageOf(answer)?.result?.content?.[0]?.text;
      if (text !== ECHO_TEXT) throw new Error(`expected "${ECHO_TEXT}", got HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
      return text;
    },
    close: () => agent.destroy(),
  };
}

/** The JSON-RPC message of a JSON answer, or of the last `data:` line of an SSE one. */
function messageOf({ headers, text }) {
  if (String(headers["content-type"]).startsWith("text/event-stream")) {
    const data = text.split("\n").findLast((line) => line.startsWith("data:"));
    return data === undefined ? undefined : JSON.parse(data.slice(5));
  }
  return text === "" ? undefined : JSON.parse(text);
}
