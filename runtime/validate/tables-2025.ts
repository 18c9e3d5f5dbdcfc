/**
 * The 2025-11-25 validators and method tables (about 20 ms to load): the
 * server imports this module only once a 2025-era client appears.
 *
 * @internal
 */
import { LEGACY_TABLES } from "../../generated/tables-legacy.js";
import type { RevisionTables } from "./core.js";

/** @internal */
export const TABLES_2025: RevisionTables = LEGACY_TABLES["2025-11-25"];
