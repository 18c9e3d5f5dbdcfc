// The floor with the checks: the bare node:http server of echo.mjs, doing
// what a server that keeps our checks cannot skip, written as directly as it
// can be and with no SDK structure around it: the Streamable HTTP header
// rules (Content-Type, Accept, Host; on a 2026-07-28 request
// MCP-Protocol-Version, Mcp-Method and Mcp-Name against the body), the
// whole request checked by the published validators of its revision
// (`validateRequest`, the `_meta` envelope included), the tool's arguments by
// its input schema (AJV, compiled once), the result by the revision's result
// schema (`validateResult`), and the same answer bytes as ours. What ours
// costs above it is the SDK's own work: routing, contexts, middlewares,
// tracking, the arguments' snapshot. Set beside the bare floor and ours, it
// shows whether a budget over the bare floor is in reach of any server that
// checks what ours checks (bench/PROFILES.md).
import { createServer } from "node:http";
import { Ajv } from "ajv";
import { validateRequest, validateResult } from "mcp-roundtrip/validate";
import { closeServer, listen, onJsonBody } from "../lib/listen.mjs";
import { SERVER_INFO } from "./fixtures.mjs";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const META = { "io.modelcontextprotocol/serverInfo": SERVER_INFO };
const ALLOWED_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const ajv = new Ajv();
/** The bench's two tools, each with its input schema compiled. */
const TOOLS = new Map([
  [
    "echo",
    {
      arguments: ajv.compile({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }),
      run: (args) => args.text,
    },
  ],
  [
    "add",
    {
      arguments: ajv.compile({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }),
      run: (args) => String(args.a + args.b),
    },
  ],
]);

function refuse(res, status, id, message) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: id ?? null, error: { code: -32600, message } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

/** A Host header's name without its port (`[::1]:80` → `[::1]`, `localhost` → `localhost`). */
function hostName(host) {
  const colon = host.lastIndexOf(":");
  return colon > host.lastIndexOf("]") ? host.slice(0, colon) : host;
}

/** Why a request's headers do not admit it, or `undefined`. */
function headersRefused(headers) {
  if (headers["content-type"] !== "application/json") return "Content-Type must be application/json";
  const accept = headers.accept;
  if (accept === undefined || !accept.includes("application/json") || !accept.includes("text/event-stream")) return "Accept must list JSON and SSE";
  const host = headers.host;
  if (host === undefined || !ALLOWED_HOSTS.has(hostName(host))) return "Host not allowed";
  return undefined;
}

/** Why a 2026-07-28 request's MCP headers contradict its body, or `undefined`. */
function mismatch(headers, message) {
  if (headers["mcp-protocol-version"] !== message.params._meta?.["io.modelcontextprotocol/protocolVersion"]) return "MCP-Protocol-Version mismatch";
  if (headers["mcp-method"] !== message.method) return "Mcp-Method mismatch";
  if (headers["mcp-name"] !== message.params.name) return "Mcp-Name mismatch";
  return undefined;
}

/** The floor with the checks, as the bench's server process runs it (bench/server-host.mjs). */
export async function checksFloorServer() {
  const server = createServer((req, res) => {
    const refused = headersRefused(req.headers);
    if (refused !== undefined) return refuse(res, 400, undefined, refused);
    onJsonBody(req, res, (message) => {
      const modern = message?.params?._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined;
      const revision = modern ? MODERN : LEGACY;
      if (modern) {
        const wrong = mismatch(req.headers, message);
        if (wrong !== undefined) return refuse(res, 400, message.id, wrong);
      }
      if (!validateRequest("tools/call", message, { revision }).ok) return refuse(res, 400, message.id, "invalid request");
      const tool = TOOLS.get(message.params.name);
      if (tool === undefined || !tool.arguments(message.params.arguments)) return refuse(res, 400, message.id, "invalid arguments");
      const content = [{ type: "text", text: tool.run(message.params.arguments) }];
      const result = modern ? { content, resultType: "complete", _meta: META } : { content };
      if (!validateResult("tools/call", result, { revision }).ok) return refuse(res, 500, message.id, "invalid result");
      const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
  });
  const url = await listen(server);
  return { url, close: () => closeServer(server) };
}
