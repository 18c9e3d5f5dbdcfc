import { JsonRpcErrorCode as ErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import { Connection } from "./connection.js";
import { InputRequestFailed, ProtocolVersionUnsupported } from "./errors.js";
import type { HandshakeInput, HandshakeKit, ServerDescription } from "./handshake.js";
import type { FallbackKit, Negotiated, NegotiationInput } from "./fallback.js";
import { buildEnvelope } from "./meta.js";
import { forget, recall, remember } from "./outcomes.js";
import { type JsonObject, LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION, SPOKEN, isLegacyVersion } from "./protocol.js";
import { isObject } from "../protocol/guards.js";
import { META_SERVER_INFO } from "../protocol/names.js";
import { errorResponse } from "../protocol/jsonrpc/responses.js";
import { MODERN_VERSIONS } from "../protocol/revisions.js";

export type { ServerDescription } from "./handshake.js";

export type { Negotiated, NegotiationInput } from "./fallback.js";

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
  InputRequestFailed,
});

/** What the lazily loaded fallback module borrows from the main modules (see {@link FallbackKit}). */
const FALLBACK_KIT: FallbackKit = Object.freeze({
  ...HANDSHAKE_KIT,
  McpError,
  LEGACY_PROTOCOL_VERSIONS,
  isUnsupportedVersion,
  supportedFrom,
  bestLegacy,
});

/** The 2025 handshake, loaded on first fallback: a client that only meets modern servers never pays for it. */
async function initializeLegacy(input: HandshakeInput, version: string, lastId: number): Promise<Negotiated> {
  const handshake = await import("./handshake.js");
  return handshake.initializeLegacy(input, version, lastId, HANDSHAKE_KIT);
}

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
      if (!(await import("./fallback.js")).assumptionFailed(error, FALLBACK_KIT)) throw error;
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
    throw (await import("./fallback.js")).unsupported(error, version, FALLBACK_KIT);
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
    timing: input.timing,
  });
  const timer = withTimeout(input.signal, pinned ? undefined : input.probeTimeoutMs);
  let discovered: JsonObject;
  try {
    discovered = await discoverOnce(modern, timer.signal);
  } catch (error) {
    input.signal?.throwIfAborted();
    // Failure paths (a pinned version refused, a handshake-era server) load their module then.
    if (pinned) throw (await import("./fallback.js")).unsupported(error, version, FALLBACK_KIT);
    // -32022 naming an older modern version this client speaks too: the probe again, under that one.
    const older = isUnsupportedVersion(error) && olderShared(supportedFrom(error.data), version);
    if (older) return probe(input, older, false, modern.lastIssuedId);
    return (await import("./fallback.js")).fallBack(input, error, timer.timedOut(), modern.lastIssuedId, FALLBACK_KIT);
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

/** A JSON-RPC `-32022` (unsupported protocol version), whose `data.supported` lists what the server takes. */
function isUnsupportedVersion(error: unknown): error is McpError {
  return error instanceof McpError && error.code === ErrorCode.UnsupportedProtocolVersion;
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
