// The flight-desk MCP server the worker serves: one tool, `book_flight`,
// with an inputSchema beyond the simple subset (a `pattern`, a `minimum`,
// arrays of arrays, checked by the SDK's eval-free validator) and an
// elicitation to confirm, sealed with the key ring from the worker's
// MCP_REQUEST_STATE_KEYS binding. Kept apart from worker.ts because a
// worker module's named exports are taken as entry points.
import { McpServer, RequestStateSecurity, decodeKeyEntry, elicit } from "mcp-roundtrip/server";

/** The worker's bindings. */
export interface WorkerEnv {
  /** Comma-separated key ring, each entry `base64url:…`, `base64:…` or `hex:…`; the first mints. */
  MCP_REQUEST_STATE_KEYS?: string;
}

/** The audience sealed into every token (and checked on the way back). */
export const AUDIENCE = "flight-desk";

/** `book_flight`'s arguments: a booking code, a seat count, and legs as [from, to] airport pairs. */
export const BOOK_FLIGHT_INPUT = {
  type: "object",
  properties: {
    code: { type: "string", pattern: "^[A-Z]{3}-[0-9]{2}$", description: "Booking code, e.g. ABC-12" },
    seats: { type: "integer", minimum: 1 },
    legs: {
      type: "array",
      minItems: 1,
      items: { type: "array", items: { type: "string", pattern: "^[A-Z]{3}$" }, minItems: 2, maxItems: 2 },
    },
  },
  required: ["code", "seats", "legs"],
  additionalProperties: false,
} as const;

const CONFIRM_FORM = {
  type: "object",
  properties: {
    confirm: { type: "boolean", title: "Book it?" },
    cabin: { type: "string", title: "Cabin", enum: ["economy", "business"] },
  },
  required: ["confirm", "cabin"],
} as const;

/**
 * Builds the flight-desk server from the worker's bindings.
 *
 * @throws {Error} when MCP_REQUEST_STATE_KEYS is missing or empty.
 * @throws {TypeError} when a key entry is malformed (the key is never shown).
 */
export function createFlightDesk(env: WorkerEnv): McpServer {
  const ring = (env.MCP_REQUEST_STATE_KEYS ?? "").split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (ring.length === 0) {
    throw new Error("The worker needs the MCP_REQUEST_STATE_KEYS binding (a key ring; make a key with `npx mcp-roundtrip keygen`).");
  }
  const security = new RequestStateSecurity({ keys: ring.map((entry) => decodeKeyEntry(entry, "MCP_REQUEST_STATE_KEYS")) }, { audience: AUDIENCE });
  const server = new McpServer({ name: "flight-desk", version: "1.0.0" }, { requestStateSecurity: security });
  server.tool(
    "book_flight",
    {
      description: "Books seats on a multi-leg trip, after the traveller confirms.",
      inputSchema: BOOK_FLIGHT_INPUT,
      needs: (need) => need.add("confirm", () => elicit({ message: "Confirm the booking?", schema: CONFIRM_FORM })),
    },
    (args, { confirm }) => {
      const legs = args.legs as string[][];
      const route = [legs[0]![0], ...legs.map((leg) => leg[1])].join("→");
      if (confirm.action !== "accept" || !confirm.content.confirm) {
        return { content: [{ type: "text", text: `Not booked: ${String(args.code)} ${route}.` }] };
      }
      return {
        content: [{ type: "text", text: `Booked ${String(args.code)}: ${route}, ${String(args.seats)} seat(s) in ${confirm.content.cabin}; sealed with ${security.crypto}.` }],
      };
    },
  );
  return server;
}
