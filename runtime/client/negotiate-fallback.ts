/**
 * What negotiation does when the first probe does not settle it: a
 * `server/discover` that failed, or that lists versions without the one
 * offered, and a pinned or remembered 2025 handshake that failed. Loaded only
 * then, so a client that connects to a modern server at the first try never
 * loads it. Like the other lazy client modules it imports no values: what it
 * shares with `negotiate.ts` comes in the {@link FallbackKit}, so a splitting
 * bundler keeps all of that in the client's main chunk (docs/internals.md).
 *
 * @internal
 * @module
 */
import type { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { ProtocolVersionUnsupported } from "./errors.js";
import type { HandshakeInput } from "./handshake.js";
import type { LEGACY_PROTOCOL_VERSIONS, SPOKEN } from "./protocol.js";
import type { MODERN_VERSIONS } from "../protocol/revisions.js";

/**
 * What this module borrows from `negotiate.ts` and the modules it holds.
 * `Input` and `Result` are negotiate.ts's own input and outcome: named there,
 * not imported here, so the two modules do not import each other.
 * @internal
 */
export interface FallbackKit<Input extends HandshakeInput = HandshakeInput, Result = unknown> {
  readonly McpError: typeof McpError;
  readonly ProtocolVersionUnsupported: typeof ProtocolVersionUnsupported;
  readonly JsonRpcErrorCode: typeof JsonRpcErrorCode;
  readonly SPOKEN: typeof SPOKEN;
  readonly LEGACY_PROTOCOL_VERSIONS: typeof LEGACY_PROTOCOL_VERSIONS;
  readonly MODERN_VERSIONS: typeof MODERN_VERSIONS;
  /** A JSON-RPC `-32022` (unsupported protocol version), whose `data.supported` lists what the server takes. */
  isUnsupportedVersion(error: unknown): error is McpError;
  /** The versions a `-32022`'s `data.supported` lists. */
  supportedFrom(data: unknown): string[];
  /** The 2025 handshake (its own module, loaded on first use). */
  initializeLegacy(input: Input, version: string, lastId: number): Promise<Result>;
  /** The `server/discover` probe under a modern `version`. */
  probe(input: Input, version: string, pinned: boolean, lastId: number): Promise<Result>;
}

/** How the probe ended: under which version, whether pinned, whether the probe timed out, the last id it used. */
export interface FailedProbe {
  version: string;
  pinned: boolean;
  timedOut: boolean;
  lastId: number;
}

/**
 * After `server/discover` failed: the probe again under an older modern
 * version the server named, the handshake for a 2025-era server, or the error.
 */
export function afterFailedProbe<Input extends HandshakeInput, Result>(
  kit: FallbackKit<Input, Result>,
  input: Input,
  error: unknown,
  probe: FailedProbe,
): Promise<Result> {
  if (probe.pinned) return Promise.reject(unsupported(kit, error, probe.version));
  // -32022 naming an older modern version this client speaks too: the probe again, under that one.
  const older = kit.isUnsupportedVersion(error) && olderShared(kit, kit.supportedFrom(error.data), probe.version);
  return older ? kit.probe(input, older, false, probe.lastId) : fallBack(kit, input, error, probe.timedOut, probe.lastId);
}

/**
 * After a `DiscoverResult` whose `supportedVersions` lacks the version
 * offered: the probe again under an older modern version it lists, the
 * handshake when it lists only 2025-era versions (or none), or
 * `ProtocolVersionUnsupported`.
 */
export function afterUnlistedVersion<Input extends HandshakeInput, Result>(
  kit: FallbackKit<Input, Result>,
  input: Input,
  listed: string[],
  version: string,
  pinned: boolean,
  lastId: number,
): Promise<Result> {
  const older = !pinned && olderShared(kit, listed, version);
  if (older) return kit.probe(input, older, false, lastId);
  const legacy = bestLegacy(kit, listed);
  // A result without versions is no DiscoverResult: a handshake-era server answered an unknown method loosely.
  if (!pinned && (legacy !== undefined || listed.length === 0)) return kit.initializeLegacy(input, legacy ?? kit.LEGACY_PROTOCOL_VERSIONS[0], lastId);
  return Promise.reject(
    new kit.ProtocolVersionUnsupported(
      `The server's server/discover lists ${listed.join(", ") || "no versions"}, not ${version}.` +
        (pinned ? ` Use mode: "auto" to fall back to an older version.` : ` This client speaks ${kit.SPOKEN}.`),
      listed,
    ),
  );
}

/** What a failed probe means: a version to retry with, a handshake-era server, or an error to surface. */
async function fallBack<Input extends HandshakeInput, Result>(
  kit: FallbackKit<Input, Result>,
  input: Input,
  error: unknown,
  timedOut: boolean,
  lastId: number,
): Promise<Result> {
  const { McpError, JsonRpcErrorCode, LEGACY_PROTOCOL_VERSIONS } = kit;
  if (kit.isUnsupportedVersion(error)) {
    const supported = kit.supportedFrom(error.data);
    const legacy = bestLegacy(kit, supported);
    if (legacy !== undefined) return kit.initializeLegacy(input, legacy, lastId);
    throw new kit.ProtocolVersionUnsupported(
      `The server supports protocol versions ${supported.join(", ") || "(none listed)"}; this client speaks ${kit.SPOKEN}. ` + `Upgrade the side that is behind.`,
      supported,
      { cause: error },
    );
  }
  // Modern errors that mean "a modern server, and something else is wrong": surfaced, never a fallback.
  if (error instanceof McpError && (error.code === JsonRpcErrorCode.HeaderMismatch || error.code === JsonRpcErrorCode.MissingRequiredClientCapability)) throw error;
  // A probe past the client's own timeoutMs (shorter than probeTimeoutMs) got no answer just the same.
  const silent = timedOut || (error as { name?: unknown } | null)?.name === "RequestTimeout";
  if (error instanceof McpError || silent || isLegacyHttpRejection(error)) {
    // A stdio child killed by the probe (or gone quiet) is started again for the handshake.
    await input.transport.reopen?.();
    return kit.initializeLegacy(input, LEGACY_PROTOCOL_VERSIONS[0], lastId);
  }
  if (input.transport.reopen !== undefined && (await input.transport.reopen())) {
    // The probe made a stdio server exit: that is a handshake-era server too.
    return kit.initializeLegacy(input, LEGACY_PROTOCOL_VERSIONS[0], lastId);
  }
  throw error;
}

/**
 * The newest modern version in `listed` that this client speaks and that is
 * older than `version` (revisions are named by date, so older sorts first):
 * older only, so a server that contradicts itself cannot keep the probe going.
 */
function olderShared(kit: FallbackKit, listed: readonly string[], version: string): string | undefined {
  return kit.MODERN_VERSIONS.find((older) => older < version && listed.includes(older));
}

/** The newest handshake-era version both sides speak. */
function bestLegacy(kit: FallbackKit, supported: readonly string[]): string | undefined {
  return kit.LEGACY_PROTOCOL_VERSIONS.find((version) => supported.includes(version));
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

/**
 * True when a remembered handshake-era outcome no longer holds: the server
 * refused `initialize` (a JSON-RPC error, an HTTP 4xx other than 401/403, or
 * a version this client does not speak). Credentials, an unreachable server
 * or a cancelled connect say nothing about the era.
 */
export function assumptionFailed(kit: FallbackKit, error: unknown): boolean {
  return error instanceof kit.McpError || error instanceof kit.ProtocolVersionUnsupported || isLegacyHttpRejection(error);
}

/** A pinned version's failure, as `ProtocolVersionUnsupported` when the server said which versions it takes. */
export function unsupported(kit: FallbackKit, error: unknown, version: string): unknown {
  if (kit.isUnsupportedVersion(error)) {
    const supported = kit.supportedFrom(error.data);
    return new kit.ProtocolVersionUnsupported(
      `The server does not support protocol ${version}; it supports ${supported.join(", ") || "(none listed)"}. ` + `Connect with mode: "auto" or pin one of those.`,
      supported,
      { cause: error },
    );
  }
  return error;
}
