/**
 * The span attributes `telemetry()` writes. Names follow the OpenTelemetry
 * semantic conventions for MCP where they exist (`mcp.method.name`,
 * `gen_ai.tool.name`, …); the MRTR ones are this SDK's.
 *
 * @module
 */

/** Span attribute names written by `telemetry()`. */
export const SpanAttribute = {
  /** The JSON-RPC method, e.g. `tools/call`. */
  method: "mcp.method.name",
  /** The tool name of a `tools/call`. */
  toolName: "gen_ai.tool.name",
  /** The prompt name of a `prompts/get`. */
  promptName: "gen_ai.prompt.name",
  /** The resource URI of a `resources/read`. */
  resourceUri: "mcp.resource.uri",
  /** The JSON-RPC request id. */
  requestId: "jsonrpc.request.id",
  /**
   * The MRTR round: `1` for a call that carries neither `requestState` nor
   * `inputResponses`, `2` for a retry. The wire does not number rounds and
   * the sealed format is shared with other SDKs, so a server cannot tell a
   * second round from a fifth; `mcp.mrtr.input_responses` tells retries apart.
   */
  round: "mcp.mrtr.round",
  /** How many `inputResponses` the request carried. */
  inputResponses: "mcp.mrtr.input_responses",
  /** `complete` or `input_required`, once a result went out. */
  resultType: "mcp.result.type",
  /** How many input requests an `input_required` result asked. */
  inputRequests: "mcp.mrtr.input_requests",
  /** The JSON-RPC error code of a failed request. */
  errorCode: "rpc.jsonrpc.error_code",
  /** The error class: the JSON-RPC code, `tool_error` for a tool result with `isError`, or the name of what a handler threw. */
  errorType: "error.type",
  /** Why a `requestState` was refused (`unknown_key`, `expired`, …), as the server's log says; the client only sees `-32602`. */
  rejectionReason: "mcp.request_state.rejection",
} as const;
