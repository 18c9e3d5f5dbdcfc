/**
 * What a failed version probe means (2026-07-28 versioning, stdio and
 * streamable-http "Backward Compatibility"), loaded only when a probe
 * fails: a handshake-era server to greet with `initialize`, a version the
 * server does not share, or a modern server's complaint to surface. Like
 * the handshake it leads to, it is handed what it needs from the main
 * modules ({@link FallbackKit}) rather than importing it, so a bundle keeps
 * the 2026 path in one chunk.
 *
 * @internal
 * @module
 */
import type { McpError } from "../protocol/jsonrpc/errors.js";
import type { HandshakeKit } from "./handshake.js";
import { initializeLegacy } from "./handshake.js";
import type { Connection } from "./connection.js";
import type { HandshakeInput, ServerDescription } from "./handshake.js";
import type { NegotiatedOutcome } from "./outcomes.js";
import type { LEGACY_PROTOCOL_VERSIONS } from "./protocol.js";

/** Inputs of the negotiation. */
export interface NegotiationInput extends HandshakeInput {
  /** `"auto"`, or one version to use without fallback. */
  mode: string;
  probeTimeoutMs: number;
  /** Where `mode: "auto"` remembers the outcome (the server's URL or command line), if anywhere. */
  cacheKey: string | undefined;
  /** An outcome the application stored from an earlier connection. */
  prior: NegotiatedOutcome | undefined;
}

/** A negotiated connection. */
export interface Negotiated {
  connection: Connection;
  server: ServerDescription;
}

/** What this module borrows from the main modules. @internal */
export interface FallbackKit extends HandshakeKit {
  readonly McpError: typeof McpError;
  readonly LEGACY_PROTOCOL_VERSIONS: typeof LEGACY_PROTOCOL_VERSIONS;
  readonly isUnsupportedVersion: (error: unknown) => error is McpError;
  readonly supportedFrom: (data: unknown) => string[];
  readonly bestLegacy: (supported: readonly string[]) => string | undefined;
}

/**
 * What a failed probe means: a handshake-era server (a JSON-RPC error, an
 * HTTP 4xx other than 401/403, silence, a stdio child that exited on it:
 * `initialize`), a version list with no shared version, or a modern
 * server's complaint (`-32020`, `-32021`: thrown as it is).
 *
 * @throws ProtocolVersionUnsupported when the server shares no version with the client
 * @internal
 */
export async function fallBack(input: NegotiationInput, error: unknown, timedOut: boolean, lastId: number, kit: FallbackKit): Promise<Negotiated> {
  const { McpError, JsonRpcErrorCode, LEGACY_PROTOCOL_VERSIONS } = kit;
  if (kit.isUnsupportedVersion(error)) {
    const supported = kit.supportedFrom(error.data);
    const legacy = kit.bestLegacy(supported);
    if (legacy !== undefined) return initializeLegacy(input, legacy, lastId, kit);
    throw new kit.ProtocolVersionUnsupported(
      `The server supports protocol versions ${supported.join(", ") || "(none listed)"}; this client speaks ${kit.SPOKEN}. Upgrade the side that is behind.`,
      supported,
      { cause: error },
    );
  }
  // Modern errors that mean "a modern server, and something else is wrong": surfaced, never a fallback.
  if (error instanceof McpError && (error.code === JsonRpcErrorCode.HeaderMismatch || error.code === JsonRpcErrorCode.MissingRequiredClientCapability)) {
    throw error;
  }
  // A probe past the client's own timeoutMs (shorter than probeTimeoutMs) got no answer just the same.
  const silent = timedOut || (error as { name?: unknown } | null)?.name === "RequestTimeout";
  if (error instanceof McpError || silent || isLegacyHttpRejection(error)) {
    // A stdio child killed by the probe (or gone quiet) is started again for the handshake.
    await input.transport.reopen?.();
    return initializeLegacy(input, LEGACY_PROTOCOL_VERSIONS[0], lastId, kit);
  }
  if (input.transport.reopen !== undefined && (await input.transport.reopen())) {
    // The probe made a stdio server exit: that is a handshake-era server too.
    return initializeLegacy(input, LEGACY_PROTOCOL_VERSIONS[0], lastId, kit);
  }
  throw error;
}

/**
 * The error for a pinned version the server refused: `ProtocolVersionUnsupported`
 * naming what it supports, for a `-32022`; any other error as it is.
 * @internal
 */
export function unsupported(error: unknown, version: string, kit: FallbackKit): unknown {
  if (!kit.isUnsupportedVersion(error)) return error;
  const supported = kit.supportedFrom(error.data);
  return new kit.ProtocolVersionUnsupported(
    `The server does not support protocol ${version}; it supports ${supported.join(", ") || "(none listed)"}. Connect with mode: "auto" or pin one of those.`,
    supported,
    { cause: error },
  );
}

/**
 * True when a remembered handshake-era outcome no longer holds: the server
 * refused `initialize` (a JSON-RPC error, an HTTP 4xx other than 401/403, or
 * a version this client does not speak). Credentials, an unreachable server
 * or a cancelled connect say nothing about the era.
 * @internal
 */
export function assumptionFailed(error: unknown, kit: FallbackKit): boolean {
  return error instanceof kit.McpError || error instanceof kit.ProtocolVersionUnsupported || isLegacyHttpRejection(error);
}

/**
 * On HTTP a handshake-era server turns the modern request away with a 4xx
 * whose body is no JSON-RPC error (streamable-http "Backward Compatibility").
 * Recognised by shape (a numeric `status`, as on `HttpTransportError`) so this
 * module needs no HTTP code. 401/403 are about credentials, not the era.
 */
function isLegacyHttpRejection(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
