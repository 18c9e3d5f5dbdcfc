/**
 * Each modern revision's validators and method tables, by the revision's
 * name: the lookup behind the per-request profile, which checks a request
 * against the schema of its own `protocolVersion`. Driven by the generated
 * index (generated/tables-modern.ts), which follows schema/sources.json, so a
 * revision added with `npm run codegen -- --add-revision` is found here with
 * no edit. Handshake-era tables stay in their own lazily loaded module
 * (`tables-2025.ts`), so a program that never meets a 2025 peer never loads them.
 *
 * @internal
 */
import { MODERN_TABLES } from "../../generated/tables-modern.js";
import type { RevisionTables } from "./core.js";
import { TABLES_2026 } from "./tables-2026.js";

const TABLES: Readonly<Record<string, RevisionTables>> = MODERN_TABLES;

/**
 * The validators and method tables of a modern revision.
 *
 * @param revision - a protocol version, e.g. `"2026-07-28"` (a request's `_meta` protocol version).
 * @returns its tables, or `undefined` for a revision with no generated schema and for a handshake-era one.
 * @internal
 */
export function tablesOfRevision(revision: string): RevisionTables | undefined {
  // Own keys only: "toString" or "__proto__" name no revision.
  return Object.hasOwn(TABLES, revision) ? TABLES[revision] : undefined;
}

/**
 * The tables a server checks a message of `version` with: its own
 * revision's, or, for a version with none (a 2025 session's, which the
 * server answers in the 2026-07-28 shape first), 2026-07-28's. A constant-time
 * own-key read of the generated table: nothing is built per call.
 *
 * @param version - the request's protocol version (`ctx.protocolVersion`), if it has one.
 * @internal
 */
export function tablesFor(version: string | undefined): RevisionTables {
  return (version !== undefined && tablesOfRevision(version)) || TABLES_2026;
}
