import { JsonRpcErrorCode as ErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import { Connection } from "./connection.js";
import { ProtocolVersionUnsupported } from "./errors.js";
import type { HandshakeInput, HandshakeKit, ServerDescription } from "./handshake.js";
import { buildEnvelope } from "./meta.js";
import { type NegotiatedOutcome, forget, recall, remember } from "./outcomes.js";
import { type JsonObject, LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION, SPOKEN, isLegacyVersion } from "./protocol.js";
import { isObject } from "../protocol/guards.js";
import { META_SERVER_INFO } from "../protocol/names.js";
import { errorResponse } from "../protocol/jsonrpc/responses.js";
import { MODERN_VERSIONS } from "../protocol/revisions.js";

export type { ServerDescription } from "./handshake.js";

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

/** True for `"auto"` and every version this client can speak (each served modern revision, each handshake-era one). */
export function isKnownMode(mode: unknown): mode is string {
  return mode === "auto" || MODERN_VERSIONS.includes(mode as string) || isLegacyVersion(mode);
}

/** What the 2025 handshake module borrows from the main modules (see {@link HandshakeKit}). */
const HANDSHAKE_KIT: HandshakeKit = Object.freeze({
  Connection,
  ProtocolVersionUnsupported,
  SPOKEN,
  isLegacyVersion,
  isObject,
  JsonRpcErrorCode: ErrorCode,
  errorResponse,
});

/** The 2025 handshake, loaded on first fallback: a client that only meets modern servers never pays for it. */
async function initializeLegacy(input: HandshakeInput, version: string, lastId: number): Promise<Negotiated> {
  const handshake = await import("./handshake.js");
  return handshake.initializeLegacy(input, version, lastId, HANDSHAKE_KIT);
}

/** Modern errors that mean "a modern server, and something else is wrong": surfaced, never a fallback. */
const MODERN_ERRORS: ReadonlySet<number> = new Set([ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability]);

/**
 * Agrees on a protocol version (2026-07-28 versioning, stdio and
 * streamable-http "Backward Compatibility"). `"auto"`: probe with
 * `server/discover` under the newest modern version. A `DiscoverResult`
 * listing it means a modern server; one listing an older modern version
 * this client speaks too, or `-32022` whose `data.supported` names one, gets
 * the probe again under the newest such version; one listing only
 * handshake-era versions, or none, gets `initialize`; `-32022` naming only
 * handshake-era versions picks the best shared one; another recognised
 * modern error is surfaced. Any other
 * JSON-RPC error, an HTTP 4xx other than 401/403, silence, or a stdio child
 * that exits (it is respawned) means a handshake-era server, which gets
 * `initialize`. The outcome is remembered per server; a remembered
 * handshake-era outcome skips the probe, and is re-probed if it fails. A
 * pinned `mode` skips both the fallback and the memory.
 *
 * @throws ProtocolVersionUnsupported when no version is shared.
 */
export async function negotiate(input: NegotiationInput): Promise<Negotiated> {
  input.signal?.throwIfAborted();
  if (input.mode !== "auto") {
    return isLegacyVersion(input.mode) ? pinnedLegacy(input, input.mode) : probe(input, input.mode, true, 0);
  }
  const prior = input.prior ?? recall(input.cacheKey);
  if (prior !== undefined && isLegacyVersion(prior.protocolVersion)) {
    try {
      return settle(input, await initializeLegacy(input, prior.protocolVersion, 0));
    } catch (error) {
      input.signal?.throwIfAborted();
      if (!assumptionFailed(error)) throw error;
      // The server changed (upgraded, or another one now answers there): learn it afresh.
      forget(input.cacheKey);
      input.transport.resetSession?.();
      await input.transport.reopen?.();
    }
  }
  return settle(input, await probe(input, MODERN_PROTOCOL_VERSION, false, 0));
}

/** Remembers what `"auto"` settled on. */
function settle(input: NegotiationInput, negotiated: Negotiated): Negotiated {
  remember(input.cacheKey, { protocolVersion: negotiated.connection.protocolVersion });
  return negotiated;
}

async function pinnedLegacy(input: NegotiationInput, version: string): Promise<Negotiated> {
  try {
    return await initializeLegacy(input, version, 0);
  } catch (error) {
    input.signal?.throwIfAborted();
    throw unsupported(error, version);
  }
}

/** Probes with `server/discover` under the modern `version` (the newest first, then an older one the server named). */
async function probe(input: NegotiationInput, version: string, pinned: boolean, lastId: number): Promise<Negotiated> {
  const modern = new Connection({
    transport: input.transport,
    era: "modern",
    protocolVersion: version,
    envelope: buildEnvelope(version, input.capabilities, input.clientInfo),
    onNotification: input.onNotification,
    lastId,
  });
  const timer = withTimeout(input.signal, pinned ? undefined : input.probeTimeoutMs);
  let discovered: JsonObject;
  try {
    discovered = await discoverOnce(modern, timer.signal);
  } catch (error) {
    input.signal?.throwIfAborted();
    if (pinned) throw unsupported(error, version);
    // -32022 naming an older modern version this client speaks too: the probe again, under that one.
    const older = isUnsupportedVersion(error) && olderShared(supportedFrom(error.data), version);
    return older ? probe(input, older, false, modern.lastIssuedId) : fallBack(input, error, timer.timedOut(), modern.lastIssuedId);
  } finally {
    timer.dispose();
  }

  const listed = Array.isArray(discovered.supportedVersions) ? (discovered.supportedVersions as unknown[]).filter((v): v is string => typeof v === "string") : [];
  if (!listed.includes(version)) {
    const older = !pinned && olderShared(listed, version);
    if (older) return probe(input, older, false, modern.lastIssuedId);
    const legacy = bestLegacy(listed);
    // A result without versions is no DiscoverResult: a handshake-era server answered an unknown method loosely.
    if (!pinned && (legacy !== undefined || listed.length === 0)) return initializeLegacy(input, legacy ?? LEGACY_PROTOCOL_VERSIONS[0], modern.lastIssuedId);
    throw new ProtocolVersionUnsupported(
      `The server's server/discover lists ${listed.join(", ") || "no versions"}, not ${version}.` +
        (pinned ? ` Use mode: "auto" to fall back to an older version.` : ` This client speaks ${SPOKEN}.`),
      listed,
    );
  }
  const meta = discovered._meta as JsonObject | undefined;
  return {
    connection: modern,
    server: {
      serverInfo: asImplementation(meta?.[META_SERVER_INFO]),
      capabilities: isObject(discovered.capabilities) ? discovered.capabilities : {},
      instructions: typeof discovered.instructions === "string" ? discovered.instructions : undefined,
      supportedVersions: listed,
    },
  };
}

/** What a failed probe means: a version to retry with, a handshake-era server, or an error to surface. */
async function fallBack(input: NegotiationInput, error: unknown, timedOut: boolean, lastId: number): Promise<Negotiated> {
  if (isUnsupportedVersion(error)) {
    const supported = supportedFrom(error.data);
    const legacy = bestLegacy(supported);
    if (legacy !== undefined) return initializeLegacy(input, legacy, lastId);
    throw new ProtocolVersionUnsupported(
      `The server supports protocol versions ${supported.join(", ") || "(none listed)"}; this client speaks ${SPOKEN}. ` + `Upgrade the side that is behind.`,
      supported,
      { cause: error },
    );
  }
  if (error instanceof McpError && MODERN_ERRORS.has(error.code)) throw error;
  if (error instanceof McpError || timedOut || isLegacyHttpRejection(error)) {
    // A stdio child killed by the probe (or gone quiet) is started again for the handshake.
    await input.transport.reopen?.();
    return initializeLegacy(input, LEGACY_PROTOCOL_VERSIONS[0], lastId);
  }
  if (input.transport.reopen !== undefined && (await input.transport.reopen())) {
    // The probe made a stdio server exit: that is a handshake-era server too.
    return initializeLegacy(input, LEGACY_PROTOCOL_VERSIONS[0], lastId);
  }
  throw error;
}

/**
 * Sends `server/discover`, offering the modern version a second time when the
 * server rejects it with `-32022` yet lists it as supported: a server may turn
 * down a first offer (a stale cache, a rolling deploy) and name what it takes.
 * One retry only, so a server that keeps contradicting itself cannot loop us.
 */
async function discoverOnce(connection: Connection, signal: AbortSignal | undefined): Promise<JsonObject> {
  try {
    return await connection.send("server/discover", {}, signal);
  } catch (error) {
    if (!isUnsupportedVersion(error) || !supportedFrom(error.data).includes(connection.protocolVersion)) throw error;
    return connection.send("server/discover", {}, signal);
  }
}

/**
 * The newest modern version in `listed` that this client speaks and that is
 * older than `version` (revisions are named by date, so older sorts first):
 * older only, so a server that contradicts itself cannot keep the probe going.
 */
function olderShared(listed: readonly string[], version: string): string | undefined {
  return MODERN_VERSIONS.find((older) => older < version && listed.includes(older));
}

/** The newest handshake-era version both sides speak. */
function bestLegacy(supported: readonly string[]): string | undefined {
  return LEGACY_PROTOCOL_VERSIONS.find((version) => supported.includes(version));
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
function assumptionFailed(error: unknown): boolean {
  return error instanceof McpError || error instanceof ProtocolVersionUnsupported || isLegacyHttpRejection(error);
}

/** A JSON-RPC `-32022` (unsupported protocol version), whose `data.supported` lists what the server takes. */
function isUnsupportedVersion(error: unknown): error is McpError {
  return error instanceof McpError && error.code === ErrorCode.UnsupportedProtocolVersion;
}

function unsupported(error: unknown, version: string): unknown {
  if (isUnsupportedVersion(error)) {
    const supported = supportedFrom(error.data);
    return new ProtocolVersionUnsupported(
      `The server does not support protocol ${version}; it supports ${supported.join(", ") || "(none listed)"}. ` + `Connect with mode: "auto" or pin one of those.`,
      supported,
      { cause: error },
    );
  }
  return error;
}

function supportedFrom(data: unknown): string[] {
  const supported = isObject(data) ? data.supported : undefined;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === "string") : [];
}

function asImplementation(value: unknown): ServerDescription["serverInfo"] {
  return isObject(value) && typeof value.name === "string" ? (value as unknown as ServerDescription["serverInfo"]) : undefined;
}

/** A signal that follows `outer` and also fires after `ms` (when given), and tells which fired. */
function withTimeout(outer: AbortSignal | undefined, ms: number | undefined) {
  if (ms === undefined) return { signal: outer, timedOut: () => false, dispose: () => {} };
  const controller = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort(new DOMException(`server/discover got no answer within ${ms} ms`, "TimeoutError"));
  }, ms);
  const onAbort = () => controller.abort(outer!.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => fired,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}
