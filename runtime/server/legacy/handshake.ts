/**
 * What a 2025 session keeps of its handshake (its server and peer, the agreed
 * version, the client's capabilities and clientInfo, whether the client
 * said `notifications/initialized`) as one frozen record shared by every
 * session of that server and peer that agreed the same: thousands of sessions of one
 * client app send identical `initialize` params, and a server holding many
 * idle sessions would otherwise keep thousands of copies of the same objects.
 *
 * @internal
 */
import type { ClientCapabilities, Implementation } from "../../protocol/types.js";
import type { SessionPeer } from "../../protocol/contracts.js";
import type { LegacyHost } from "./host.js";

/** Where a session's handshake stands. Frozen all the way down: it is shared. @internal */
export class Handshake {
  /** This record once the client said `notifications/initialized` (itself when it has). */
  readonly initialized: Handshake;

  constructor(
    readonly host: LegacyHost,
    /** Where the session sends what belongs to no request: shared by an HTTP endpoint's sessions, so the record can be too. */
    readonly peer: SessionPeer,
    /** The version `initialize` agreed; `undefined` before. */
    readonly protocolVersion: string | undefined,
    readonly clientCapabilities: ClientCapabilities,
    readonly clientInfo: Implementation | undefined,
    /** The client said `notifications/initialized`: requests to it need not wait (the lifecycle's SHOULD NOT). */
    readonly clientInitialized: boolean,
  ) {
    this.initialized = clientInitialized ? this : new Handshake(host, peer, protocolVersion, clientCapabilities, clientInfo, true);
    Object.freeze(this);
  }
}

/** Distinct handshakes remembered; beyond this the oldest is forgotten (its sessions keep their record). */
const CACHE_LIMIT = 256;
/** Larger declarations are not worth keying a cache by: the session keeps its own copy. */
const MAX_KEY_LENGTH = 4_096;
/** Deeper than this is no client's capabilities: such a declaration is copied, not walked further. */
const MAX_DEPTH = 16;

/** What a session declared before `initialize`: nothing (shared, so frozen). */
const NO_CAPABILITIES: ClientCapabilities = Object.freeze({});

interface Records {
  readonly before: Handshake;
  readonly known: Map<string, Handshake>;
}

/**
 * Each peer's records for each server: the one before any handshake, and those of handshakes seen, by
 * their JSON. A peer of one connection (stdio, in memory) has records of its own, dropped with it.
 */
const peers = new WeakMap<SessionPeer, WeakMap<LegacyHost, Records>>();

function recordsOf(host: LegacyHost, peer: SessionPeer): Records {
  let servers = peers.get(peer);
  if (servers === undefined) peers.set(peer, (servers = new WeakMap()));
  let records = servers.get(host);
  if (records === undefined) servers.set(host, (records = { before: new Handshake(host, peer, undefined, NO_CAPABILITIES, undefined, false), known: new Map() }));
  return records;
}

/** The record of a session of `host` on `peer` before `initialize`. @internal */
export function beforeHandshake(host: LegacyHost, peer: SessionPeer): Handshake {
  return recordsOf(host, peer).before;
}

/**
 * The record for this handshake: a shared one when an identical one was
 * seen on this peer (same version, same capabilities and clientInfo as JSON), else a new
 * one. Only plain JSON data is shared, and as a frozen copy: the caller's
 * objects are neither frozen nor kept, so nothing a message's sender still
 * holds can change what a session declared.
 */
export function handshakeOf(
  host: LegacyHost,
  peer: SessionPeer,
  protocolVersion: string,
  capabilities: ClientCapabilities,
  clientInfo: Implementation | undefined,
): Handshake {
  if (!isJsonData(capabilities, 0) || (clientInfo !== undefined && !isJsonData(clientInfo, 0))) {
    // Not plain JSON (an in-process transport may hand over anything): kept as given, unshared, as before.
    return new Handshake(host, peer, protocolVersion, capabilities, clientInfo, false);
  }
  const key = `${protocolVersion}\n${JSON.stringify(capabilities)}\n${clientInfo === undefined ? "" : JSON.stringify(clientInfo)}`;
  const cache = recordsOf(host, peer).known;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const copiedInfo = clientInfo === undefined ? undefined : (deepFreeze(structuredCopy(clientInfo)) as unknown as Implementation);
  const record = new Handshake(host, peer, protocolVersion, deepFreeze(structuredCopy(capabilities)) as ClientCapabilities, copiedInfo, false);
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
