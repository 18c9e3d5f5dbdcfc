/**
 * What a 2025 session keeps of its handshake (the agreed version, the
 * client's capabilities and clientInfo) as one frozen record shared by
 * every session that agreed the same: thousands of sessions of one client
 * app send identical `initialize` params, and a server holding many idle
 * sessions would otherwise keep thousands of copies of the same objects.
 *
 * @internal
 */
import type { ClientCapabilities, Implementation } from "../../protocol/types.js";

/** The outcome of a session's `initialize`. Frozen all the way down: it may be shared. @internal */
export interface Handshake {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
}

/** Distinct handshakes remembered; beyond this the oldest is forgotten (its sessions keep their record). */
const CACHE_LIMIT = 256;
/** Larger declarations are not worth keying a cache by: the session keeps its own copy. */
const MAX_KEY_LENGTH = 4_096;
/** Deeper than this is no client's capabilities: such a declaration is copied, not walked further. */
const MAX_DEPTH = 16;

const cache = new Map<string, Handshake>();

/** What a session declared before `initialize`: nothing (shared, so frozen). @internal */
export const NO_CAPABILITIES: ClientCapabilities = Object.freeze({});

/**
 * The record for this handshake: a shared one when an identical one was
 * seen (same version, same capabilities and clientInfo as JSON), else a new
 * one. Only plain JSON data is shared, and as a frozen copy: the caller's
 * objects are neither frozen nor kept, so nothing a message's sender still
 * holds can change what a session declared.
 */
export function handshakeOf(protocolVersion: string, capabilities: ClientCapabilities, clientInfo: Implementation | undefined): Handshake {
  if (!isJsonData(capabilities, 0) || (clientInfo !== undefined && !isJsonData(clientInfo, 0))) {
    // Not plain JSON (an in-process transport may hand over anything): kept as given, unshared, as before.
    return Object.freeze({ protocolVersion, clientCapabilities: capabilities, clientInfo });
  }
  const key = `${protocolVersion}\n${JSON.stringify(capabilities)}\n${clientInfo === undefined ? "" : JSON.stringify(clientInfo)}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const record: Handshake = Object.freeze({
    protocolVersion,
    clientCapabilities: deepFreeze(structuredCopy(capabilities)) as ClientCapabilities,
    clientInfo: clientInfo === undefined ? undefined : (deepFreeze(structuredCopy(clientInfo)) as unknown as Implementation),
  });
  if (key.length > MAX_KEY_LENGTH) return record;
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, record);
  return record;
}

/** True for what JSON carries exactly: plain objects and arrays of strings, finite numbers, booleans and null. */
function isJsonData(value: unknown, depth: number): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => isJsonData(item, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  // JSON.stringify skips symbol keys, hidden members and undefined values: such an object would not round-trip.
  if (Object.getOwnPropertySymbols(value).length > 0 || Object.getOwnPropertyNames(value).length !== Object.keys(value).length) return false;
  return Object.values(value).every((item) => isJsonData(item, depth + 1));
}

/** A copy of JSON data, so the shared record owns every object it freezes. */
function structuredCopy(value: object): object {
  return JSON.parse(JSON.stringify(value)) as object;
}

function deepFreeze(value: object): object {
  for (const item of Object.values(value)) if (typeof item === "object" && item !== null) deepFreeze(item as object);
  return Object.freeze(value);
}
