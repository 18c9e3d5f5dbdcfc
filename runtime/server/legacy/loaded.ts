/**
 * Everything the 2025 path needs at run time, in one module for
 * `loadLegacy()` to import.
 *
 * @internal
 */
export { LegacySession } from "./session.js";
export { answerStateless } from "./stateless.js";
