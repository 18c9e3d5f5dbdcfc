// Inputs every workload shares, so both SDKs do the same work per call.

/** The tool argument both SDKs echo back. */
export const ECHO_TEXT = "hello";

/** The question the MRTR tool asks (one elicitation, one boolean). */
export const CONFIRM_SCHEMA = Object.freeze({
  type: "object",
  properties: { confirm: { type: "boolean" } },
  required: ["confirm"],
});

/** What the client answers to the elicitation. */
export const CONFIRM_ANSWER = Object.freeze({ action: "accept", content: { confirm: true } });

/** The text a finished MRTR call returns; checked once per worker. */
export const confirmedText = (text) => `confirmed:${text}`;

/**
 * A handler state whose compact JSON is exactly 300 bytes, for the
 * seal + verify comparison.
 */
export function stateOf300Bytes() {
  const base = { step: 2, user: "u-1234", cart: ["sku-1", "sku-2"], note: "" };
  const filler = 300 - JSON.stringify(base).length;
  const state = { ...base, note: "x".repeat(filler) };
  const size = Buffer.byteLength(JSON.stringify(state));
  if (size !== 300) throw new Error(`stateOf300Bytes built ${size} bytes, expected 300`);
  return state;
}

/** A 2026-07-28 `tools/call` request as it arrives at a server. */
export function toolsCallRequest(id = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text: ECHO_TEXT },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      },
    },
  };
}

/** The name and version every bench server reports (`serverInfo`). */
export const SERVER_INFO = Object.freeze({ name: "bench", version: "1.0.0" });

/** The `CallToolResult` the echo tool answers. */
export function toolsCallResult() {
  return {
    resultType: "complete",
    content: [{ type: "text", text: ECHO_TEXT }],
    _meta: { "io.modelcontextprotocol/serverInfo": { ...SERVER_INFO } },
  };
}

/**
 * Reads the first text block of a tool result, or throws: a workload whose
 * call does not return what it should is measuring the wrong thing.
 */
export function textOf(result) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== "string") throw new Error(`expected a text result, got ${JSON.stringify(result)}`);
  return text;
}
