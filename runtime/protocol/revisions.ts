/**
 * The protocol revisions this SDK speaks, in one place: every list of
 * versions in the runtime (what the server negotiates and advertises, what
 * the client offers, how a message's era is judged) is read from here, so
 * a revision that changes no behaviour is one more entry in the right list.
 *
 * - Modern revisions carry the per-request `_meta` envelope (no
 *   handshake) and are validated by the generated schema of their name.
 * - Legacy (2025) revisions open with `initialize`; all are validated by
 *   the newest one's schema (older clients send a subset of it).
 *
 * Plain lists rather than a table of records: the browser client reads
 * them too, and literals are what its bundle budget can afford.
 *
 * @module
 */

/** Which generation of the protocol a message speaks: per-request envelope, or handshake. */
export type Era = "modern" | "legacy";

/**
 * Modern (per-request `_meta`) revisions, newest first: each validated by
 * the generated schema of the same name.
 * @internal
 */
export const MODERN_VERSIONS: readonly string[] = Object.freeze(["2026-07-28"]);

/**
 * Handshake-era revisions a dual-era server answers, newest first; all are
 * validated by the newest one's generated schema (older clients send a
 * subset of it).
 * @internal
 */
export const LEGACY_VERSIONS: readonly string[] = Object.freeze(["2025-11-25", "2025-06-18", "2025-03-26"]);

/** Every revision's version string, newest first. @internal */
export const ALL_VERSIONS: readonly string[] = Object.freeze([...MODERN_VERSIONS, ...LEGACY_VERSIONS]);

/** The version a 2025 request without any version header is taken to speak (2025-11-25 transports page). @internal */
export const LEGACY_DEFAULT_VERSION = "2025-03-26";
