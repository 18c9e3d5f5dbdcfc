/**
 * The protocol's shapes for revision 2026-07-28, as the runtime sees them: the one
 * module runtime files import generated 2026-07-28 *types* through, so a new revision
 * (or a renamed generated file) is a change here, not in thirty files.
 * Types only: the generated validators and method tables are values and stay with
 * runtime/validate/, so this module adds nothing to any bundle.
 *
 * @packageDocumentation
 */
export type * from "../../generated/2026-07-28/types.js";
export type { InputRequestMap, InputRequiredMethod } from "../../generated/2026-07-28/methods.js";
