/**
 * The options of the Streamable HTTP client transport, and their checks.
 *
 * @internal
 */
import type { HttpClientAuth } from "./auth.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./body.js";

/** Supplies the bearer token for each request; `undefined` sends none. */
export type TokenProvider = () => string | undefined | Promise<string | undefined>;

/** Options of {@link StreamableHttpClientTransport}. */
export interface HttpClientTransportOptions {
  /** The `fetch` to use (for proxies, test doubles, custom agents). Default: global `fetch`. */
  fetch?: typeof fetch;
  /** Extra headers sent on every request (POST, and a 2025 session's GET and DELETE). */
  headers?: Record<string, string>;
  /** A bearer token, or a function returning the current one (called per request). */
  token?: string | TokenProvider;
  /**
   * An authorization scheme that recovers from 401 and 403 answers, such as
   * `new OAuthClient(…)` from `mcp-roundtrip/ext/oauth`. Exclusive with `token`.
   */
  auth?: HttpClientAuth;
  /**
   * Protocol version for the `MCP-Protocol-Version` header when a message
   * carries none in `_meta` (2025-era requests after `initialize`).
   */
  protocolVersion?: string;
  /** Receives warnings, such as tools dropped for invalid `x-mcp-header` annotations. Default: `console.warn`. */
  onWarning?: (message: string) => void;
  /**
   * The largest answer read: a JSON body, or one SSE event, in bytes
   * (default 16 MiB). A larger one fails the request with an error saying so
   * instead of being buffered.
   */
  maxResponseBytes?: number;
}

/**
 * Checks the endpoint URL and the options of a transport.
 *
 * @throws {TypeError} for a URL that is not http(s) or options of the wrong type.
 * @throws {RangeError} for a `maxResponseBytes` that is not a positive integer.
 * @internal
 */
export function checkOptions(
  url: string | URL,
  options: HttpClientTransportOptions,
): { parsed: URL; fetchImpl: typeof fetch; token: string | TokenProvider | undefined; auth: HttpClientAuth | undefined; maxResponseBytes: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Not a valid URL: "${String(url)}". Pass the server's MCP endpoint, e.g. http://127.0.0.1:3000/mcp.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`Streamable HTTP needs an http: or https: URL, got "${parsed.protocol}".`);
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") {
    throw new TypeError("No fetch implementation: pass options.fetch on runtimes without a global fetch.");
  }
  const token = options.token;
  if (token !== undefined && typeof token !== "string" && typeof token !== "function") {
    throw new TypeError("token must be a string or a function returning the current token.");
  }
  const auth = options.auth;
  if (auth !== undefined && (typeof auth?.authorization !== "function" || typeof auth.unauthorized !== "function")) {
    throw new TypeError("auth must have authorization() and unauthorized() methods, such as an OAuthClient from mcp-roundtrip/ext/oauth.");
  }
  if (auth !== undefined && token !== undefined) {
    throw new TypeError("Pass either token or auth, not both: auth supplies the Authorization header itself.");
  }
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes <= 0) {
    throw new RangeError(`maxResponseBytes must be a positive integer number of bytes, got ${String(maxResponseBytes)}.`);
  }
  return { parsed, fetchImpl, token, auth, maxResponseBytes };
}
