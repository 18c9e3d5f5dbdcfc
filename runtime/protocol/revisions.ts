/**
 * The protocol revisions this SDK speaks, in one place: every list of
 * versions in the runtime (what the server negotiates and advertises, what
 * the client offers, how a message's era is judged) is read from here. The
 * modern list follows schema/sources.json through the generated index, so a
 * modern revision that changes no behaviour needs no edit here at all.
 *
 * - Modern revisions carry the per-request `_meta` envelope (no
 *   handshake) and are validated by the generated schema of their name.
 * - Legacy (2025) revisions open with `initialize`; all are validated by
 *   the newest one's schema (older clients send a subset of it).
 *
 * Plain lists rather than a table of records: the browser client reads
 * them too, and literals are what its bundle budget can afford (the
 * generated list is one frozen array of strings, with no import of its own).
 *
 * @module
 */
import { SERVED_MODERN_REVISIONS as MODERN_VERSIONS } from "../../generated/revisions.js";
/** Which generation of the protocol a message speaks: per-request envelope, or handshake. */
export type Era = "modern" | "legacy";

/**
 * Modern (per-request `_meta`) revisions, newest first: each validated by
 * the generated schema of the same name. The generated index's list, which
 * follows schema/sources.json: `npm run codegen -- --add-revision` adds a
 * revision to it unless it is pinned with `"serve": false` (no profile in
 * the runtime yet: the server refuses it with -32022). Re-exported, not
 * copied: one binding in the browser bundle.
 * @internal
 */
export { MODERN_VERSIONS };

// One of MODERN_VERSIONS, as a type (generated with it); the client exports it as ModernProtocolVersion.
export type { ServedModernRevision } from "../../generated/revisions.js";

/**
 * Handshake-era revisions a dual-era server answers, newest first; all are
 * validated by the newest one's generated schema (older clients send a
 * subset of it). Kept by hand: most have no generated schema of their own,
 * and the handshake era is closed (no new revision will join it).
 * @internal
 */
export const LEGACY_VERSIONS: readonly string[] = Object.freeze(["2025-11-25", "2025-06-18", "2025-03-26"]);

/** Every revision's version string, newest first. @internal */
export const ALL_VERSIONS: readonly string[] = Object.freeze([...MODERN_VERSIONS, ...LEGACY_VERSIONS]);

/** The version a 2025 request without any version header is taken to speak (2025-11-25 transports page). @internal */
export const LEGACY_DEFAULT_VERSION = "2025-03-26";
