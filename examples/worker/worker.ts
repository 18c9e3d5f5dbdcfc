/**
 * An MCP server as a Workers-style module (`export default { fetch }`):
 * `McpServer` + `createHttpHandler` from `mcp-roundtrip/server`, sealed
 * request state, and tool schemas checked by the eval-free validator, so it
 * runs where `new Function` and `node:` builtins are not available
 * (Cloudflare Workers / workerd, Deno Deploy, any fetch-handler runtime).
 *
 * Bindings (the `env` argument): `MCP_REQUEST_STATE_KEYS`, the key ring as
 * `base64url:<key>[,base64url:<older key>]` (`npx mcp-roundtrip keygen`
 * prints one), shared by every instance so any of them finishes any round;
 * without it each isolate seals under its own ephemeral key.
 */
import { createHttpHandler, type HttpRequestHandler, inputRequired, McpServer, RequestStateSecurity } from "mcp-roundtrip/server";
import { decodeKeyEntry } from "mcp-roundtrip/state";

/** The bindings this worker reads. */
export interface WorkerEnv {
  MCP_REQUEST_STATE_KEYS?: string;
  /** Origins a browser app may call from (comma-separated); default: loopback only. */
  MCP_ALLOWED_ORIGINS?: string;
}

/** What `plan_trip` takes: a code matching a pattern, bounded numbers and nested arrays. */
const TRIP_SCHEMA = {
  type: "object",
  properties: {
    code: { type: "string", pattern: "^[A-Z]{3}-[0-9]{2}$", description: "trip code, e.g. LIS-01" },
    travellers: { type: "integer", minimum: 1, maximum: 9 },
    legs: {
      type: "array",
      minItems: 1,
      description: "each leg as [longitude, latitude] points",
      items: { type: "array", minItems: 2, items: { type: "array", items: { type: "number", minimum: -180, maximum: 180 }, minItems: 2, maxItems: 2 } },
    },
  },
  required: ["code", "travellers", "legs"],
  additionalProperties: false,
} as const;

/** The worker's MCP server: one plain tool, one that confirms through an MRTR round with sealed state. */
export function createWorkerServer(env: WorkerEnv = {}): McpServer {
  const keys = env.MCP_REQUEST_STATE_KEYS;
  const requestStateSecurity =
    keys === undefined || keys.trim() === ""
      ? undefined
      : new RequestStateSecurity({ keys: keys.split(",").map((entry) => decodeKeyEntry(entry, "MCP_REQUEST_STATE_KEYS")) }, { audience: "mcp-roundtrip-worker" });
  const server = new McpServer(
    { name: "mcp-roundtrip-worker", version: "1.0.0" },
    { compileSchema: "eval-free", ...(requestStateSecurity ? { requestStateSecurity } : {}) },
  );
  server.tool(
    "echo",
    { description: "Echoes a message", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } },
    ({ message }) => ({
      content: [{ type: "text", text: String(message) }],
    }),
  );
  server.tool("plan_trip", { description: "Plans a trip once the user confirms it", inputSchema: TRIP_SCHEMA }, (args, ctx) => {
    const { code, travellers, legs } = args as { code: string; travellers: number; legs: number[][][] };
    const answer = ctx.inputResponses?.confirm as { action?: string; content?: { seat?: string } } | undefined;
    if (answer?.action !== "accept") {
      return inputRequired({
        inputRequests: {
          confirm: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: `Book ${code} for ${travellers} traveller(s), ${legs.length} leg(s)?`,
              requestedSchema: { type: "object", properties: { seat: { type: "string", enum: ["aisle", "window"], title: "Seat" } }, required: ["seat"] },
            },
          },
        },
        // Sealed by the server before it leaves: the client cannot read or forge it.
        requestState: JSON.stringify({ code, points: legs.flat().length }),
      });
    }
    const state = JSON.parse(ctx.requestState ?? "{}") as { code?: string; points?: number };
    return { content: [{ type: "text", text: `Booked ${state.code} (${state.points} points), seat: ${answer.content?.seat ?? "any"}` }] };
  });
  return server;
}

let handler: HttpRequestHandler | undefined;

/** The Workers entry: the MCP endpoint on `/mcp`, `404` elsewhere. */
export default {
  fetch(request: Request, env: WorkerEnv = {}): Promise<Response> {
    handler ??= createHttpHandler(createWorkerServer(env), {
      allowedOrigins: env.MCP_ALLOWED_ORIGINS ? env.MCP_ALLOWED_ORIGINS.split(",").map((origin) => origin.trim()) : undefined,
      onError: (error) => console.error("[worker]", error),
    });
    if (new URL(request.url).pathname !== "/mcp") return Promise.resolve(new Response("Not found: the MCP endpoint is /mcp\n", { status: 404 }));
    return handler(request);
  },
};
