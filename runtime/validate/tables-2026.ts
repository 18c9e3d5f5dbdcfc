/** The 2026-07-28 validators and method tables (from the generated index, like every modern revision's). @internal */
import { MODERN_TABLES } from "../../generated/tables-modern.js";
import type { RevisionTables } from "./core.js";

/** @internal */
export const TABLES_2026: RevisionTables = MODERN_TABLES["2026-07-28"];
