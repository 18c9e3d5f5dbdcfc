/**
 * Which generation of the protocol a message belongs to, decided per
 * message as the 2026-07-28 versioning page says: a request whose `_meta`
 * (or, over HTTP, whose `MCP-Protocol-Version` header) names a modern
 * version is modern; everything else, `initialize` first of all, is 2025-era.
 *
 * @internal
 */

import { META_PROTOCOL_VERSION } from "./names.js";

/** The reserved `_meta` key carrying a modern request's protocol version. */
const META_PROTOCOL_VERSION_KEY = META_PROTOCOL_VERSION;

/** Modern (per-request `_meta`) revisions, newest first. */
export const MODERN_VERSIONS: readonly string[] = Object.freeze(["2026-07-28"]);

/** Handshake-era revisions a dual-era server answers, newest first. */
export const LEGACY_VERSIONS: readonly string[] = Object.freeze(["2025-11-25", "2025-06-18", "2025-03-26"]);

/** The version a 2025 request without any version header is taken to speak (2025-11-25 transports page). */
export const LEGACY_DEFAULT_VERSION = "2025-03-26";

/** True for a version that uses per-request `_meta` rather than a handshake. */
export function isModernVersion(version: unknown): boolean {
  // Any dated revision after the last handshake-era one is modern, so an unknown future version gets -32022, not a session.
  return typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) && version > LEGACY_VERSIONS[0]!;
}

/** The protocol version a message's `_meta` claims, if it claims one. */
export function bodyVersionOf(message: unknown): unknown {
  if (typeof message !== "object" || message === null) return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  return (meta as Record<string, unknown>)[META_PROTOCOL_VERSION_KEY];
}

/**
 * True when a message claims the modern, per-request envelope: its `_meta`
 * carries a protocol version (even one the server does not speak, which then
 * gets `-32022`), or, with no such claim in the body, the HTTP header names a
 * modern version. `initialize` never counts as modern unless it carries the
 * envelope claim.
 *
 * @param message - one decoded JSON-RPC message
 * @param headerVersion - the `MCP-Protocol-Version` header, over HTTP
 */
export function claimsModern(message: unknown, headerVersion?: string | null): boolean {
  if (bodyVersionOf(message) !== undefined) return true;
  if ((message as { method?: unknown } | null)?.method === "initialize") return false;
  return headerVersion !== undefined && headerVersion !== null && isModernVersion(headerVersion);
}
