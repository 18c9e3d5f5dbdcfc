/**
 * One incoming message, judged once at the edge: its body's media type, its
 * bytes read within a bound and decoded, its JSON-RPC envelope checked, what it is (request, notification, response)
 * and which generation of the protocol it speaks. Transports classify each
 * message here and hand the classification on; the server and its 2025
 * sessions act on it and never ask again.
 *
 * @module
 */
import { LEGACY_VERSIONS, type Era } from "./revisions.js";
import { META_PROTOCOL_VERSION } from "./names.js";

/**
 * The media type of a `Content-Type` (or one `Accept` entry) value,
 * lower-cased and without parameters: what a body is, before it is read.
 * @internal
 */
export function mediaTypeOf(value: string | null): string {
  if (value === "application/json") return value;
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * Reads `body` to its end; `null` (after cancelling the stream) once more
 * than `limit` bytes arrived.
 * @internal
 */
export async function readBounded(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A JSON-RPC request id: MCP forbids `null`. */
export type JsonRpcId = string | number;

const strictUtf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/**
 * What decoding one message gave: the value and a bound on how deep it nests
 * (see {@link openingsIn}), or why it is not one. @internal
 */
export type Decoded = { ok: true; value: unknown; openings: number } | { ok: false; reason: "utf8" | "json" };

/** Openings counted in a message's text before the count gives up (and the server walks the value instead). */
const OPENINGS_COUNTED = 256;

/**
 * How many `{` and `[` the JSON text holds, `Infinity` past
 * {@link OPENINGS_COUNTED}. Each level a value nests opens with one of them
 * (those inside strings only add to the count), so a value parsed from the
 * text nests at most this deep: the server's nesting guard need not walk a
 * value whose text had fewer openings than its limit. Counted with the
 * string's own search, a few dozen nanoseconds for a usual request, where
 * walking the parsed objects touches each of them once more.
 * @internal
 */
export function openingsIn(text: string): number {
  let count = 0;
  for (const opening of ["{", "["]) {
    for (let at = text.indexOf(opening); at !== -1; at = text.indexOf(opening, at + 1)) {
      if (++count > OPENINGS_COUNTED) return Number.POSITIVE_INFINITY;
    }
  }
  return count;
}

/**
 * Bytes to one JSON value, the same way on every transport: strict UTF-8
 * (an invalid sequence is an error, never replaced), a leading byte-order
 * mark dropped, then `JSON.parse`.
 * @internal
 */
export function decodeJson(bytes: Uint8Array): Decoded {
  let text: string;
  try {
    // TextDecoder drops a leading BOM unless told otherwise, on every call.
    text = strictUtf8.decode(bytes);
  } catch {
    return { ok: false, reason: "utf8" };
  }
  try {
    return { ok: true, value: JSON.parse(text), openings: openingsIn(text) };
  } catch {
    return { ok: false, reason: "json" };
  }
}

/**
 * True for an id MCP accepts: a string, or a safe integer. A fraction, an
 * integer beyond 2^53 (which JSON parsing has already rounded, so the echo
 * would name another request) or an overflow to Infinity are not.
 */
export function isValidRequestId(id: unknown): id is JsonRpcId {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
}

/** A message's `id` when it is a valid request id, else `undefined`. @internal */
function readableId(message: Record<string, unknown>): JsonRpcId | undefined {
  const id = message.id;
  return isValidRequestId(id) ? id : undefined;
}

/** The members of `params` that belong to the 2026-07-28 envelope rather than to the method. */
const ENVELOPE_KEYS = ["_meta", "inputResponses", "requestState"] as const;

/** A request's or notification's params without the envelope's members (`_meta`, `inputResponses`, `requestState`). @internal */
export function paramsWithoutEnvelope(params: Record<string, unknown>): Record<string, unknown> {
  if (!ENVELOPE_KEYS.some((key) => key in params)) return params;
  const own = { ...params };
  for (const key of ENVELOPE_KEYS) delete own[key];
  return own;
}

/** The protocol version a message's `_meta` claims, if it claims one. @internal */
function bodyVersionOf(params: unknown): unknown {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  return (meta as Record<string, unknown>)[META_PROTOCOL_VERSION];
}

/**
 * The era a version string belongs to. Any dated revision after the newest
 * handshake one counts as modern, so a client speaking a future revision
 * gets `-32022` listing ours rather than being taken for a 2025 client.
 * @internal
 */
export function eraOfVersion(version: unknown): Era | undefined {
  if (typeof version !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(version)) return undefined;
  return version > LEGACY_VERSIONS[0]! ? "modern" : "legacy";
}

/** A request whose envelope is sound. @internal */
export interface ClassifiedRequest {
  readonly kind: "request";
  readonly era: Era;
  readonly id: JsonRpcId;
  readonly method: string;
  /** `params`, an object when present. */
  readonly params: Record<string, unknown> | undefined;
  /** The message as decoded. */
  readonly message: Record<string, unknown>;
  /**
   * The most levels the message can nest, when its transport decoded it from
   * text ({@link openingsIn}); `undefined` for a value handed over as one.
   */
  readonly nestingBound: number | undefined;
}

/** A notification whose envelope is sound. @internal */
export interface ClassifiedNotification {
  readonly kind: "notification";
  readonly era: Era;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly message: Record<string, unknown>;
  /** As {@link ClassifiedRequest.nestingBound}. */
  readonly nestingBound: number | undefined;
}

/** A response (to a request a 2025 session sent the client). @internal */
export interface ClassifiedResponse {
  readonly kind: "response";
  readonly message: Record<string, unknown>;
}

/** A message whose envelope is broken: it gets `-32600` with `detail`, echoing `id` when it has a readable one. @internal */
interface InvalidMessage {
  readonly kind: "invalid";
  readonly id: JsonRpcId | undefined;
  readonly detail: string;
  /** The value as decoded. */
  readonly message: unknown;
}

/**
 * What one incoming message is, decided once, at the edge. The server and
 * its sessions take this instead of the raw message (see
 * `MessageHandler.handleClassified`).
 */
export type ClassifiedMessage = ClassifiedRequest | ClassifiedNotification | ClassifiedResponse | InvalidMessage;

const invalid = (message: unknown, id: JsonRpcId | undefined, detail: string): InvalidMessage => ({ kind: "invalid", id, detail, message });

/**
 * Checks the JSON-RPC envelope of one decoded message, says what it is,
 * and decides its era, the one place that does: as the 2026-07-28
 * versioning page says, per message. A request or notification whose
 * `_meta` names a protocol version is modern (an unknown one then gets
 * `-32022`), as is `server/discover`, which exists only there; `initialize`
 * is the 2025 handshake; anything else is modern when the HTTP
 * `MCP-Protocol-Version` header names a modern revision, else 2025-era.
 *
 * @param message - one decoded JSON value
 * @param headerVersion - the `MCP-Protocol-Version` header, over HTTP
 * @param nestingBound - {@link Decoded}'s `openings` when the transport decoded the message from text
 * @internal
 */
export function classifyMessage(message: unknown, headerVersion?: string | null, nestingBound?: number): ClassifiedMessage {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return invalid(
      message,
      undefined,
      Array.isArray(message) ? "JSON-RPC batches are not supported; send one message at a time" : "expected one JSON-RPC 2.0 message object",
    );
  }
  const envelope = message as Record<string, unknown>;
  if (envelope.jsonrpc !== "2.0") return invalid(envelope, readableId(envelope), '"jsonrpc" must be "2.0"');
  const method = envelope.method;
  if (typeof method !== "string") {
    if ("result" in envelope || "error" in envelope) return { kind: "response", message: envelope };
    return invalid(envelope, readableId(envelope), '"method" must be a string');
  }
  const params = envelope.params;
  const isRequest = "id" in envelope;
  const id = envelope.id;
  if (isRequest && !isValidRequestId(id))
    return invalid(envelope, undefined, '"id" must be a string or a safe integer (MCP forbids null, fractions and integers beyond 2^53)');
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    return invalid(envelope, isRequest ? (id as JsonRpcId) : undefined, '"params" must be an object');
  }
  const checked = params as Record<string, unknown> | undefined;
  let era: Era;
  if (bodyVersionOf(checked) !== undefined || method === "server/discover") era = "modern";
  else if (method === "initialize" || headerVersion === undefined || headerVersion === null) era = "legacy";
  else era = eraOfVersion(headerVersion) === "modern" ? "modern" : "legacy";
  if (!isRequest) return { kind: "notification", era, method, params: checked, message: envelope, nestingBound };
  return { kind: "request", era, id: id as JsonRpcId, method, params: checked, message: envelope, nestingBound };
}
