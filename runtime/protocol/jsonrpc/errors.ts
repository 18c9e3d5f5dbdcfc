/**
 * JSON-RPC error codes this SDK emits or interprets. The MCP-specific ones
 * (-32020…-32022) are the 2026-07-28 schema's; the generated tables carry the
 * same numbers, and a test keeps the two in step.
 */
export const JsonRpcErrorCode = {
  /** -32700: the bytes were not JSON; the response carries no id, since none could be read. */
  ParseError: -32700,
  /** -32600: JSON, but not a valid JSON-RPC request (no method, a `null` id, a batch). */
  InvalidRequest: -32600,
  /** -32601: the peer has no handler for this method. */
  MethodNotFound: -32601,
  /** -32602: the params failed the method's schema, or named an unknown tool, prompt or resource. */
  InvalidParams: -32602,
  /** -32603: the handler failed unexpectedly; the server logs the cause and sends only "Internal error". */
  InternalError: -32603,
  /** -32020: an `Mcp-Param-*` HTTP header disagrees with the params it mirrors. */
  HeaderMismatch: -32020,
  /** -32021: the request needs a client capability (elicitation, sampling, roots) the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** -32022: the peer asked for a protocol revision this side does not speak; `data` lists the supported ones. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the numeric codes in {@link JsonRpcErrorCode}, or any other integer a peer sent. */
export type JsonRpcErrorCodeValue = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/** The `error` member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  /** An integer: one of {@link JsonRpcErrorCode}, or any code the peer chose. */
  code: number;
  /** A short human-readable account, meant for logs rather than for program logic. */
  message: string;
  /** Anything structured the peer attached (e.g. the supported versions with -32022). */
  data?: unknown;
}

/**
 * An error that crosses the wire as a JSON-RPC error response.
 *
 * Servers throw it from handlers to answer with a chosen `code`, `message`
 * and `data`; clients receive it when the peer answered with an error.
 *
 * @example
 * ```ts
 * throw new McpError(JsonRpcErrorCode.InvalidParams, "Unknown tool: deploy", { tool: "deploy" });
 * ```
 */
export class McpError extends Error {
  /** `"McpError"` (subclasses set their own), so logs and `error.name` checks tell it from other errors. */
  override readonly name: string = "McpError";
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The JSON-RPC error `data`, passed to the peer as is. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  /** The wire form: `{ code, message, data? }`. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an `McpError` from the `error` member of a response a peer sent. */
  static fromObject(error: JsonRpcErrorObject): McpError {
    return new McpError(error.code, error.message, error.data);
  }
}
