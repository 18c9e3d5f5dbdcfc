import { JsonRpcErrorCode as ErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import { Connection } from "./connection.js";
import { ClientClosed, InputRequestFailed, ProtocolVersionUnsupported, SessionExpired } from "./errors.js";
import type { HandshakeInput, HandshakeKit, ServerDescription } from "./handshake.js";
import type { FallbackKit } from "./negotiate-fallback.js";
import { withoutCallback } from "./kinds.js";
import { InputResponseInvalid } from "./answer-errors.js";
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
  InputRequestFailed,
  ClientClosed,
  SessionExpired,
  withoutCallback,
  InputResponseInvalid,
});

/** The 2025 handshake, loaded on first fallback: a client that only meets modern servers never pays for it. */
async function initializeLegacy(input: HandshakeInput, version: string, lastId: number): Promise<Negotiated> {
  const handshake = await import("./handshake.js");
  return handshake.initializeLegacy(input, version, lastId, HANDSHAKE_KIT);
}

/** What the fallback module (loaded when the first probe does not settle the version) borrows from here. */
const FALLBACK_KIT: FallbackKit<NegotiationInput, Negotiated> = Object.freeze({
  McpError,
  ProtocolVersionUnsupported,
  JsonRpcErrorCode: ErrorCode,
  SPOKEN,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_VERSIONS,
  isUnsupportedVersion,
  supportedFrom,
  initializeLegacy,
  probe,
});

/** The fallback module: a client whose first probe reaches a modern server never loads it. */
const fallback = () => import("./negotiate-fallback.js");

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
      if (!(await fallback()).assumptionFailed(FALLBACK_KIT, error)) throw error;
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
    throw (await fallback()).unsupported(FALLBACK_KIT, error, version);
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
    const failed = { version, pinned, timedOut: timer.timedOut(), lastId: modern.lastIssuedId };
    return (await fallback()).afterFailedProbe(FALLBACK_KIT, input, error, failed);
  } finally {
    timer.dispose();
  }

  const listed = Array.isArray(discovered.supportedVersions) ? (discovered.supportedVersions as unknown[]).filter((v): v is string => typeof v === "string") : [];
  if (!listed.includes(version)) return (await fallback()).afterUnlistedVersion(FALLBACK_KIT, input, listed, version, pinned, modern.lastIssuedId);
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
