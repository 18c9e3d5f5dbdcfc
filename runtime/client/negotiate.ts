import { McpError } from "../jsonrpc/errors.js";
import type { JsonRpcRequest, JsonRpcResponse } from "../jsonrpc/messages.js";
import type { ClientTransport } from "../transport/types.js";
import { type InputCallbacks, type InputRequestContext, callbackFor } from "./callbacks.js";
import { Connection } from "./connection.js";
import { ProtocolVersionUnsupported } from "./errors.js";
import { buildEnvelope } from "./meta.js";
import {
  type ClientCapabilities,
  type Implementation,
  type JsonObject,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  MetaKey,
  type ServerCapabilities,
} from "./protocol.js";

/** What the server said about itself while the version was agreed. */
export interface ServerDescription {
  serverInfo: Implementation | undefined;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  /** Versions the server listed (`server/discover`), or the one `initialize` agreed. */
  supportedVersions: readonly string[];
}

/** Inputs of the negotiation. */
export interface NegotiationInput {
  transport: ClientTransport;
  /** `"auto"`, or one version to use without fallback. */
  mode: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation | false;
  callbacks: InputCallbacks;
  probeTimeoutMs: number;
  signal: AbortSignal | undefined;
  onNotification: ConstructorParameters<typeof Connection>[0]["onNotification"];
}

const LEGACY: ReadonlySet<string> = new Set(LEGACY_PROTOCOL_VERSIONS);

/** True for `"auto"` and every version this client can speak. */
export function isKnownMode(mode: unknown): mode is string {
  return mode === "auto" || mode === MODERN_PROTOCOL_VERSION || (typeof mode === "string" && LEGACY.has(mode));
}

/**
 * Agrees on a protocol version (2026-07-28 versioning, stdio and
 * streamable-http "Backward Compatibility"): probe with `server/discover`
 * under the modern version; a `DiscoverResult` or a recognised modern error
 * means a modern server; any other JSON-RPC error, an HTTP 4xx without one,
 * or silence means a handshake-era server, which gets `initialize`. A pinned
 * `mode` skips the fallback.
 *
 * @throws ProtocolVersionUnsupported when no version is shared.
 */
export async function negotiate(input: NegotiationInput): Promise<{ connection: Connection; server: ServerDescription }> {
  input.signal?.throwIfAborted();
  if (input.mode !== "auto" && LEGACY.has(input.mode)) return initializeLegacy(input, input.mode, 0);

  const modern = new Connection({
    transport: input.transport,
    era: "modern",
    protocolVersion: MODERN_PROTOCOL_VERSION,
    envelope: buildEnvelope(MODERN_PROTOCOL_VERSION, input.capabilities, input.clientInfo),
    onNotification: input.onNotification,
  });
  const pinned = input.mode !== "auto";
  const probe = withTimeout(input.signal, pinned ? undefined : input.probeTimeoutMs);
  let discovered: JsonObject;
  try {
    discovered = await discoverOnce(modern, probe.signal);
  } catch (error) {
    input.signal?.throwIfAborted();
    const timedOut = probe.timedOut();
    if (pinned) throw probeFailed(error, MODERN_PROTOCOL_VERSION);
    if (error instanceof McpError && error.code === -32022) {
      const supported = supportedFrom(error.data);
      const legacy = supported.find((version) => LEGACY.has(version));
      if (legacy !== undefined) return initializeLegacy(input, legacy, modern.lastIssuedId);
      throw new ProtocolVersionUnsupported(
        `The server supports protocol versions ${supported.join(", ") || "(none listed)"}; this client speaks ` +
          `${[MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS].join(", ")}. Upgrade the side that is behind.`,
        supported,
        { cause: error },
      );
    }
    // A code in the spec's reserved range is a modern server saying something else is wrong: surface it.
    if (error instanceof McpError && error.code <= -32020 && error.code >= -32099) throw error;
    if (error instanceof McpError || timedOut || isLegacyHttpRejection(error)) {
      return initializeLegacy(input, LEGACY_PROTOCOL_VERSIONS[0], modern.lastIssuedId);
    }
    throw error;
  } finally {
    probe.dispose();
  }

  const supportedVersions = Array.isArray(discovered.supportedVersions)
    ? (discovered.supportedVersions as unknown[]).filter((v): v is string => typeof v === "string")
    : [];
  if (!supportedVersions.includes(MODERN_PROTOCOL_VERSION)) {
    const legacy = supportedVersions.find((version) => LEGACY.has(version));
    if (!pinned && legacy !== undefined) return initializeLegacy(input, legacy, modern.lastIssuedId);
    throw new ProtocolVersionUnsupported(
      `The server's server/discover lists ${supportedVersions.join(", ") || "no versions"}, not ${MODERN_PROTOCOL_VERSION}.` +
        (pinned ? ` Use mode: "auto" to fall back to an older version.` : ``),
      supportedVersions,
    );
  }
  const meta = discovered._meta as JsonObject | undefined;
  return {
    connection: modern,
    server: {
      serverInfo: asImplementation(meta?.[MetaKey.serverInfo]),
      capabilities: isObject(discovered.capabilities) ? discovered.capabilities : {},
      instructions: typeof discovered.instructions === "string" ? discovered.instructions : undefined,
      supportedVersions,
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
    if (!(error instanceof McpError && error.code === -32022)) throw error;
    if (!supportedFrom(error.data).includes(MODERN_PROTOCOL_VERSION)) throw error;
    return connection.send("server/discover", {}, signal);
  }
}

async function initializeLegacy(
  input: NegotiationInput,
  version: string,
  lastId: number,
): Promise<{ connection: Connection; server: ServerDescription }> {
  installBackChannel(input.transport, input.callbacks);
  const handshake = new Connection({
    transport: input.transport,
    era: "legacy",
    protocolVersion: version,
    envelope: undefined,
    onNotification: input.onNotification,
    lastId,
  });
  const params: JsonObject = { protocolVersion: version, capabilities: input.capabilities };
  params.clientInfo = input.clientInfo === false ? { name: "mcp-roundtrip", version: "0.0.0" } : input.clientInfo;
  let result: JsonObject;
  try {
    result = await handshake.send("initialize", params, input.signal);
  } catch (error) {
    input.signal?.throwIfAborted();
    throw probeFailed(error, version);
  }
  const agreed = result.protocolVersion;
  if (typeof agreed !== "string" || !LEGACY.has(agreed)) {
    throw new ProtocolVersionUnsupported(
      `The server answered initialize with protocol version ${JSON.stringify(agreed)}, which this client does not speak ` +
        `(it speaks ${[MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS].join(", ")}).`,
      typeof agreed === "string" ? [agreed] : [],
    );
  }
  const connection = new Connection({
    transport: input.transport,
    era: "legacy",
    protocolVersion: agreed,
    envelope: undefined,
    onNotification: input.onNotification,
    lastId: handshake.lastIssuedId,
  });
  await connection.notify("notifications/initialized");
  return {
    connection,
    server: {
      serverInfo: asImplementation(result.serverInfo),
      capabilities: isObject(result.capabilities) ? result.capabilities : {},
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
      supportedVersions: [agreed],
    },
  };
}

/**
 * A handshake-era server asks over its back-channel; the same callbacks that
 * answer `inputRequests` answer it here, when the transport can carry it.
 */
function installBackChannel(transport: ClientTransport, callbacks: InputCallbacks): void {
  if (transport.setServerRequestHandler === undefined) return;
  transport.setServerRequestHandler(async (request: JsonRpcRequest): Promise<JsonRpcResponse> => {
    if (request.method === "ping") return { jsonrpc: "2.0", id: request.id, result: {} };
    const answer = callbackFor(callbacks, request.method);
    if (answer === undefined) {
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32601, message: `Method not found: this client does not handle ${request.method}` },
      };
    }
    const controller = new AbortController();
    const context: InputRequestContext = { key: undefined, method: request.method, signal: controller.signal };
    try {
      const result = (await answer((request.params ?? {}) as never, context)) as JsonObject;
      return { jsonrpc: "2.0", id: request.id, result };
    } catch (error) {
      controller.abort(error);
      const reason = error instanceof Error ? error.message : String(error);
      return { jsonrpc: "2.0", id: request.id, error: { code: -32603, message: `The client's callback failed: ${reason}` } };
    }
  });
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

function probeFailed(error: unknown, version: string): unknown {
  if (error instanceof McpError && error.code === -32022) {
    const supported = supportedFrom(error.data);
    return new ProtocolVersionUnsupported(
      `The server does not support protocol ${version}; it supports ${supported.join(", ") || "(none listed)"}. ` +
        `Connect with mode: "auto" or pin one of those.`,
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

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asImplementation(value: unknown): Implementation | undefined {
  return isObject(value) && typeof value.name === "string" ? (value as unknown as Implementation) : undefined;
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
