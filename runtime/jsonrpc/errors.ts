/**
 * JSON-RPC error codes this SDK emits or interprets. The MCP-specific ones
 * (-32020…-32022) are the 2026-07-28 schema's; the generated tables carry the
 * same numbers, and a test keeps the two in step.
 */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the numeric codes in {@link JsonRpcErrorCode}, or any other integer a peer sent. */
export type JsonRpcErrorCodeValue = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/** The `error` member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
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
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an `McpError` from the `error` member of a response a peer sent. */
  static fromObject(error: JsonRpcErrorObject): McpError {
    return new McpError(error.code, error.message, error.data);
  }
}
