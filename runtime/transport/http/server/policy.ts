/**
 * What a Streamable HTTP endpoint accepts and from whom: the handler
 * options, their defaults, and the Origin/Host rules they resolve to.
 */
import type { TokenVerifier } from "./token-verifier.js";
import { legacyAuthorization, resolveAuthorization, scopeList, type AuthorizationOptions, type ResolvedAuthorization } from "./authorization.js";
import { resolveSessionLimits, type ResolvedSessionLimits, type SessionLimitOptions } from "./session-options.js";

export type { HttpRequestInfo, TokenVerifier } from "./token-verifier.js";

/** Options shared by {@link createHttpHandler} and `serveHttp`. */
export interface HttpHandlerOptions extends SessionLimitOptions {
  /**
   * Origins a browser may call from. A request whose `Origin` header is not
   * listed gets `403`; requests without `Origin` (non-browser clients) pass.
   * Default: loopback origins only (`http(s)://localhost|127.0.0.1|[::1]` on
   * any port). Pass a function for custom rules, or `"*"` to allow any.
   */
  allowedOrigins?: readonly string[] | "*" | ((origin: string) => boolean);
  /**
   * Host names (without port) the server answers to; anything else gets
   * `403`, which defeats DNS rebinding. Default: no check, except that
   * `serveHttp` on a loopback address restricts to loopback names.
   */
  allowedHosts?: readonly string[];
  /** Largest request body accepted, in bytes; larger gets `413`. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Makes the endpoint an OAuth 2.1 protected resource: it serves the
   * protected-resource metadata document (RFC 9728) at its well-known
   * paths, answers `401` with a `WWW-Authenticate: Bearer
   * resource_metadata="…", scope="…"` challenge when the token is missing
   * or invalid and `403` `insufficient_scope` naming the scopes needed. The
   * verified identity reaches handlers as `authInfo`, and sealed request
   * state binds to its client, issuer and subject.
   */
  authorization?: AuthorizationOptions;
  /**
   * Bearer authentication without a metadata document.
   * @deprecated Use `authorization: { resource, authorizationServers, verify }`,
   * which also publishes the metadata clients need to obtain a token.
   */
  verifyToken?: TokenVerifier;
  /**
   * Scopes every request's token must carry (with `verifyToken`).
   * @deprecated Use `authorization.requiredScopes`.
   */
  requiredScopes?: readonly string[];
  /**
   * URL of the OAuth protected-resource metadata, advertised in `WWW-Authenticate` (with `verifyToken`).
   * @deprecated `authorization` serves the document and advertises its URL itself.
   */
  resourceMetadataUrl?: string;
  /**
   * Receives failures the client is not told about in detail (a throwing
   * verifier, a broken stream). Default: printed to stderr with `console.error`.
   */
  onError?: (error: unknown) => void;
  /**
   * Most 2025 sessions held at once; an `initialize` beyond it gets `503`
   * with `Retry-After`. Default 1,000. (2026-07-28 clients hold no session.)
   * Each principal's share of them is `maxSessionsPerPrincipal`.
   */
  maxSessions?: number;
  /**
   * How long a 2025 session may go without a request or an open GET stream
   * before it ends, in milliseconds; its id then gets `404`. Default 30 minutes.
   */
  sessionIdleTimeoutMs?: number;
  /**
   * Accept a request whose `MCP-Protocol-Version` header names a 2025
   * version while its `_meta` names 2026-07-28, and serve it as 2026-07-28
   * (a widely used hosted client sends this). Default `false`: such a
   * request gets `400` / `-32020`.
   */
  preferBodyVersion?: boolean;
  /**
   * How often an idle `subscriptions/listen` stream gets an SSE comment line,
   * in milliseconds, so proxies that cut silent connections (nginx after 60 s
   * by default) leave it open. Default 15,000; `0` sends none.
   */
  sseKeepAliveMs?: number;
  /**
   * Most bytes an SSE stream may hold for a client that reads it too slowly
   * (a 2025 session's GET or POST stream, a 2026-07-28 request's stream, a
   * `subscriptions/listen` stream). A write that would leave more waiting
   * closes that stream's connection instead: a 2025 client resumes it with
   * `Last-Event-ID` from the replay log; a 2026-07-28 request ends (its
   * handler's signal aborts). Handlers that `await ctx.sendNotification(…)`
   * wait for the reader instead of filling the buffer. Default 4 MiB.
   */
  maxStreamBufferBytes?: number;
  /**
   * How long a browser may cache a CORS preflight answer, in seconds
   * (`Access-Control-Max-Age`). Default 600; browsers cap it (Chromium at
   * 7,200). Preflights are answered for origins `allowedOrigins` admits.
   */
  corsMaxAgeSeconds?: number;
}

/** Default body-size limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Default bound on the bytes an SSE stream holds for a slow reader: 4 MiB. */
const DEFAULT_MAX_STREAM_BUFFER_BYTES = 4 * 1024 * 1024;

/** Where transport failures go when no `onError` is given (or the given one throws): stderr, so none disappears. @internal */
export function reportToStderr(error: unknown): void {
  console.error("[mcp-roundtrip http]", error);
}

/** Default interval of the comment line that keeps an idle listen stream open: 15 seconds. */
const DEFAULT_SSE_KEEPALIVE_MS = 15_000;

/** Default lifetime of a cached CORS preflight answer: 10 minutes. */
const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

/** Default bound on 2025 sessions held at once. */
const DEFAULT_MAX_SESSIONS = 1_000;

/** Default idle lifetime of a 2025 session: 30 minutes. */
const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** True for loopback host names, which get DNS-rebinding protection by default. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host.toLowerCase());
}

/** Options with defaults filled in, computed once per handler. */
export interface ResolvedHttpOptions {
  originAllowed: (origin: string) => boolean;
  allowedHosts: Set<string> | undefined;
  maxBodyBytes: number;
  /** Bearer authentication, from `authorization` or the deprecated `verifyToken`. */
  auth: ResolvedAuthorization | undefined;
  onError: (error: unknown) => void;
  maxSessions: number;
  sessionIdleTimeoutMs: number;
  preferBodyVersion: boolean;
  sseKeepAliveMs: number;
  corsMaxAgeSeconds: number;
  maxStreamBufferBytes: number;
  /** What one 2025 client may hold: sessions per principal, requests in flight, bytes kept. */
  sessionLimits: ResolvedSessionLimits;
}

/**
 * Validates options and fills defaults.
 *
 * @throws {TypeError} for options of the wrong type.
 * @throws {RangeError} for a non-positive body limit.
 */
export function resolveHttpOptions(options: HttpHandlerOptions = {}): ResolvedHttpOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("HTTP handler options must be an object, e.g. { maxBodyBytes: 1_048_576 }.");
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new RangeError(`maxBodyBytes must be a positive integer number of bytes, got ${String(maxBodyBytes)}.`);
  }
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!Number.isSafeInteger(maxSessions) || maxSessions <= 0) {
    throw new RangeError(`maxSessions must be a positive integer, got ${String(maxSessions)}.`);
  }
  const sessionIdleTimeoutMs = options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  if (!Number.isSafeInteger(sessionIdleTimeoutMs) || sessionIdleTimeoutMs <= 0) {
    throw new RangeError(`sessionIdleTimeoutMs must be a positive integer number of milliseconds, got ${String(sessionIdleTimeoutMs)}.`);
  }
  const sseKeepAliveMs = options.sseKeepAliveMs ?? DEFAULT_SSE_KEEPALIVE_MS;
  if (!Number.isSafeInteger(sseKeepAliveMs) || sseKeepAliveMs < 0) {
    throw new RangeError(`sseKeepAliveMs must be an integer number of milliseconds ≥ 0, got ${String(sseKeepAliveMs)}.`);
  }
  const corsMaxAgeSeconds = options.corsMaxAgeSeconds ?? DEFAULT_CORS_MAX_AGE_SECONDS;
  if (!Number.isSafeInteger(corsMaxAgeSeconds) || corsMaxAgeSeconds < 0) {
    throw new RangeError(`corsMaxAgeSeconds must be a non-negative integer number of seconds, got ${String(corsMaxAgeSeconds)}.`);
  }
  const maxStreamBufferBytes = options.maxStreamBufferBytes ?? DEFAULT_MAX_STREAM_BUFFER_BYTES;
  if (!Number.isSafeInteger(maxStreamBufferBytes) || maxStreamBufferBytes < 1024) {
    throw new RangeError(`maxStreamBufferBytes must be an integer number of bytes ≥ 1024, got ${String(maxStreamBufferBytes)}.`);
  }
  if (options.verifyToken !== undefined && typeof options.verifyToken !== "function") {
    throw new TypeError("verifyToken must be a function (token, request) => AuthInfo | null.");
  }
  if (
    options.authorization !== undefined &&
    (options.verifyToken !== undefined || options.requiredScopes !== undefined || options.resourceMetadataUrl !== undefined)
  ) {
    throw new TypeError("Pass either authorization or the deprecated verifyToken/requiredScopes/resourceMetadataUrl, not both: move them into authorization.");
  }
  const auth =
    options.authorization !== undefined
      ? resolveAuthorization(options.authorization)
      : options.verifyToken !== undefined
        ? legacyAuthorization(options.verifyToken, scopeList(options.requiredScopes, "requiredScopes"), options.resourceMetadataUrl)
        : undefined;
  return {
    originAllowed: originPolicy(options.allowedOrigins),
    allowedHosts: options.allowedHosts ? new Set(options.allowedHosts.map((host) => host.toLowerCase())) : undefined,
    maxBodyBytes,
    auth,
    onError: options.onError ?? reportToStderr,
    maxSessions,
    sessionIdleTimeoutMs,
    preferBodyVersion: options.preferBodyVersion === true,
    sseKeepAliveMs,
    corsMaxAgeSeconds,
    maxStreamBufferBytes,
    sessionLimits: resolveSessionLimits(options, maxSessions, auth !== undefined),
  };
}

function originPolicy(allowed: HttpHandlerOptions["allowedOrigins"]): (origin: string) => boolean {
  if (allowed === "*") return () => true;
  if (typeof allowed === "function") return allowed;
  if (Array.isArray(allowed)) {
    const set = new Set(allowed.map((origin) => origin.toLowerCase()));
    return (origin) => set.has(origin.toLowerCase());
  }
  if (allowed !== undefined) {
    throw new TypeError('allowedOrigins must be a list of origins, "*", or a function (origin) => boolean.');
  }
  return (origin) => {
    try {
      const url = new URL(origin);
      return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname);
    } catch {
      return false;
    }
  };
}

/** Host name of a `Host` header value, without port. */
export function hostNameOf(host: string): string {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}
