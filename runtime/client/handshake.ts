/**
 * The 2025-era lifecycle (2025-11-25 basic/lifecycle), loaded only when a
 * connection falls back to it: `initialize` with
 * the client's capabilities in that revision's shape, the agreed version
 * handed to the transport, `notifications/initialized`, the back channel and
 * the GET event stream, and a new session when an HTTP server lost the old one.
 *
 * @internal
 */
import type { JsonRpcNotification } from "../protocol/jsonrpc/messages.js";
import type { ClientTransport } from "../protocol/contracts.js";
import { type BackChannelKit, installBackChannel } from "./back-channel.js";
import type { Answerers } from "./callbacks.js";
import type { Connection } from "./connection.js";
import type { RequestTiming } from "./deadline.js";
import type { ProtocolVersionUnsupported } from "./errors.js";
import { type RenewalKit, renewingSessions } from "./session-renewal.js";
import type { ClientCapabilities, Implementation, JsonObject, SPOKEN, isLegacyVersion } from "./protocol.js";
import type { isObject } from "../protocol/guards.js";

/** What the server said about itself while the version was agreed. */
export interface ServerDescription {
  serverInfo: Implementation | undefined;
  capabilities: JsonObject;
  instructions: string | undefined;
  /** Versions the server listed (`server/discover`), or the one `initialize` agreed. */
  supportedVersions: readonly string[];
}

/** What the 2025 handshake needs from `Client.connect`. */
export interface HandshakeInput {
  transport: ClientTransport;
  capabilities: ClientCapabilities;
  clientInfo: Implementation | false;
  answerers: Answerers;
  signal: AbortSignal | undefined;
  onNotification: ((notification: JsonRpcNotification) => void) | undefined;
  /** Bounds a transparent session renewal, which no caller's signal covers. */
  renewTimeoutMs: number;
  /** Every request's deadline, unless a call names its own. */
  timing: RequestTiming | undefined;
}

/**
 * What this lazily loaded module (2025 servers only) borrows from the
 * client's main modules, handed over by `negotiate.ts` rather than imported:
 * a bundle then keeps those in its main chunk, and the 2025 chunk imports
 * nothing it shares with it.
 *
 * @internal
 */
export interface HandshakeKit extends BackChannelKit, RenewalKit {
  readonly Connection: typeof Connection;
  readonly ProtocolVersionUnsupported: typeof ProtocolVersionUnsupported;
  readonly SPOKEN: typeof SPOKEN;
  readonly isLegacyVersion: typeof isLegacyVersion;
  readonly isObject: typeof isObject;
}

/** How long `initialized` waits for the server to answer the event stream's GET: a server slow to flush stream headers must not stall every connect. */
const EVENT_STREAM_WAIT_MS = 500;

/** Waits for `promise`, at most `ms`. */
async function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Connects with `initialize`, offering `version`, and returns the legacy
 * connection with the server's description.
 *
 * @param lastId - the last request id already used on the transport (by the probe).
 * @throws ProtocolVersionUnsupported when the server answers with a version this client does not speak.
 * @throws McpError (or the transport's error) when the server refuses `initialize`.
 */
export async function initializeLegacy(
  input: HandshakeInput,
  version: string,
  lastId: number,
  kit: HandshakeKit,
): Promise<{ connection: Connection; server: ServerDescription }> {
  // The calls go through what the back channel returns, so a call the server ended over a misfit answer throws the typed error.
  const transport = installBackChannel(input.transport, input.answerers, kit);
  if (input.onNotification !== undefined) transport.setNotificationHandler?.(input.onNotification);
  const connection = new kit.Connection({
    transport,
    era: "legacy",
    protocolVersion: version,
    envelope: undefined,
    onNotification: input.onNotification,
    lastId,
    timing: input.timing,
  });
  const server = await handshake(connection, input, version, input.signal, kit);
  if (transport.resetSession !== undefined) {
    const renew = async () => {
      transport.resetSession!();
      await handshake(connection, input, connection.protocolVersion, AbortSignal.timeout(input.renewTimeoutMs), kit);
    };
    connection.inSession = renewingSessions(connection, renew, kit);
  }
  return { connection, server };
}

async function handshake(
  connection: Connection,
  input: HandshakeInput,
  offered: string,
  signal: AbortSignal | undefined,
  { ProtocolVersionUnsupported, SPOKEN, isLegacyVersion, isObject }: HandshakeKit,
): Promise<ServerDescription> {
  const params: JsonObject = {
    protocolVersion: offered,
    capabilities: capabilitiesFor(offered, input.capabilities),
    // initialize requires clientInfo even when the caller chose to send none on modern requests.
    // The same identity as meta.ts's DEFAULT_CLIENT_INFO, written out: importing it would split a shared chunk
    // off the browser entry (scripts/version-packages.mjs sets both at a release).
    clientInfo: input.clientInfo === false ? { name: "mcp-roundtrip", version: "0.1.0" } : input.clientInfo,
  };
  const result = await connection.sendDirect("initialize", params, signal);
  const agreed = result.protocolVersion;
  if (!isLegacyVersion(agreed)) {
    throw new ProtocolVersionUnsupported(
      `The server answered initialize with protocol version ${JSON.stringify(agreed)}, which this client does not speak ` + `(it speaks ${SPOKEN}).`,
      typeof agreed === "string" ? [agreed] : [],
    );
  }
  connection.agree(agreed);
  // Before `initialized`: over HTTP every message after initialize carries the agreed version header.
  connection.transport.useProtocolVersion?.(agreed);
  // The event stream opens before `initialized`, because a server may ask (roots/list) the moment it is
  // initialized, and one without an event store drops what it sends while no stream is open.
  const listening = connection.transport.openEventStream?.();
  if (listening !== undefined) await settledWithin(listening, EVENT_STREAM_WAIT_MS);
  await connection.notify("notifications/initialized");
  return {
    serverInfo: asImplementation(result.serverInfo, isObject),
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
    supportedVersions: [agreed],
  };
}

/**
 * The client's capabilities as `version`'s schema spells them: elicitation
 * became `{ form, url }` in 2025-11-25, was a bare `{}` in 2025-06-18 and
 * did not exist in 2025-03-26. `roots` never claims `listChanged`, since
 * this client sends no roots list-changed notification.
 */
function capabilitiesFor(version: string, capabilities: ClientCapabilities): JsonObject {
  const shaped: JsonObject = {};
  for (const [key, value] of Object.entries(capabilities)) {
    if (value === undefined) continue;
    if (key === "elicitation") {
      if (version === "2025-03-26") continue;
      shaped.elicitation = version === "2025-06-18" ? {} : value;
    } else if (key === "roots") {
      shaped.roots = {};
    } else if (key !== "extensions") {
      // Extensions are negotiated per request in 2026-07-28; earlier revisions have no such capability.
      shaped[key] = value;
    }
  }
  return shaped;
}

function asImplementation(value: unknown, isObject: HandshakeKit["isObject"]): Implementation | undefined {
  return isObject(value) && typeof value.name === "string" ? (value as unknown as Implementation) : undefined;
}
