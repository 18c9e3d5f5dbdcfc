/**
 * What the 2025 path loads on the first 2025 request, in one module for
 * `loadLegacy()` to import: the 2025 profile (with the 2025 validators) and
 * the stateless answer.
 *
 * @internal
 */
export { LEGACY } from "./profile.js";
export { answerStateless } from "./stateless.js";
