/**
 * The one type guard both sides use to tell an `InputRequiredResult` from a
 * complete result.
 *
 * @module
 * @internal
 */
import type { InputRequiredResult } from "./types.js";

/**
 * True when `value` is an `InputRequiredResult` (`resultType:
 * "input_required"`): the server needs more input before it can finish.
 *
 * @param value - a result, as a handler returned it or a server sent it
 */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return typeof value === "object" && value !== null && (value as { resultType?: unknown }).resultType === "input_required";
}
