/**
 * CORS for the Streamable HTTP endpoint (Fetch standard, "CORS protocol"),
 * so a web app on an origin in `allowedOrigins` can reach the server:
 * preflight `OPTIONS` answers, and on every answer to an allowed origin the
 * headers that let its script read the status, the body and the headers a
 * client must read (`Mcp-Session-Id`, `MCP-Protocol-Version`,
 * `WWW-Authenticate`). Origins not on the list get no CORS header at all
 * (and `403` from the Origin check), so the browser withholds the answer.
 */
import type { HttpReply, SseAnswer } from "./exchange.js";
import { hostNameOf, type ResolvedHttpOptions } from "./policy.js";

/** What a browser script may read of an answer besides the CORS-safelisted headers. */
const CORS_EXPOSED_HEADERS = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate";

/** What a preflight allows when the browser names no headers: everything an MCP client sends. */
const DEFAULT_ALLOWED_HEADERS = "Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID";

/** A comma-separated list of header names (RFC 9110 tokens), which a preflight may reflect. */
const HEADER_LIST = /^\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+(\s*,\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*\s*$/;

/** Longest `Access-Control-Request-Headers` reflected; longer gets the default list. */
const MAX_REFLECTED_HEADERS = 2048;

/**
 * The preflight answer for `origin`: `204` with the methods this endpoint
 * takes, the headers asked for (or the MCP ones) and how long to cache it;
 * `403` without any CORS header for a refused origin or Host.
 *
 * @param methods - what the endpoint takes, e.g. `"POST"` or `"GET, POST, DELETE"`.
 * @internal
 */
export function answerPreflight(options: ResolvedHttpOptions, header: (name: string) => string | null, reply: HttpReply, methods: string): void {
  const origin = header("origin");
  const host = header("host");
  const hostRefused = options.allowedHosts !== undefined && (!host || !options.allowedHosts.has(hostNameOf(host).toLowerCase()));
  if (origin === null || hostRefused || !options.originAllowed(origin)) {
    // Not a preflight this server grants: the browser sees no Access-Control-Allow-Origin and fails the request.
    reply.send(403, { vary: "Origin", "content-type": "text/plain" }, "CORS preflight refused: the Origin (or Host) is not on this server's allow-list.");
    return;
  }
  const requested = header("access-control-request-headers");
  const allowHeaders = requested !== null && requested.length <= MAX_REFLECTED_HEADERS && HEADER_LIST.test(requested) ? requested : DEFAULT_ALLOWED_HEADERS;
  reply.send(
    204,
    {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": methods,
      "access-control-allow-headers": allowHeaders,
      "access-control-max-age": String(options.corsMaxAgeSeconds),
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    },
    "",
  );
}

/**
 * `reply` with the CORS answer headers for an allowed `origin` added to
 * whatever it sends (JSON, errors, `401` challenges and SSE streams alike).
 *
 * @internal
 */
export function withCors(reply: HttpReply, origin: string): HttpReply {
  const cors = (headers: Record<string, string>): Record<string, string> => ({
    ...headers,
    "access-control-allow-origin": origin,
    "access-control-expose-headers": CORS_EXPOSED_HEADERS,
    vary: "Origin",
  });
  return {
    send: (status, headers, body) => reply.send(status, cors(headers), body),
    stream: (headers, onClose, maxBufferedBytes, paced): SseAnswer => reply.stream(cors(headers), onClose, maxBufferedBytes, paced),
    failed: () => reply.failed(),
  };
}
