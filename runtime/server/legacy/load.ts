/**
 * The 2025 path, loaded on the first 2025 message: a server that only ever
 * meets 2026-07-28 clients never imports it (nor the 2025 validators it
 * pulls in), which keeps its cold start short.
 *
 * @internal
 */

type LegacyModules = typeof import("./loaded.js");

let loading: Promise<LegacyModules> | undefined;
let loaded: LegacyModules | undefined;

/** The 2025 modules, imported once. @internal */
export function loadLegacy(): Promise<LegacyModules> {
  loading ??= import("./loaded.js").then(({ LEGACY, answerStateless }) => (loaded = { LEGACY, answerStateless }));
  return loading;
}

/** The 2025 modules once loaded, so a session's later requests need not wait a turn for them. @internal */
export function legacyModules(): LegacyModules | undefined {
  return loaded;
}
