/**
 * The one place a 2026-07-28 input request becomes the request a 2025
 * client expects, for every question asked over a session (declared needs
 * and the `legacyInputRequired` shim alike).
 *
 * @internal
 */

/**
 * The params to send a 2025 client for an input request of `method`.
 * 2026-07-28 dropped `elicitationId` from URL-mode elicitation, but the
 * 2025-11-25 schema requires it (a 2025 client refuses the request without
 * one), so a fresh id is added; the server sends no
 * `notifications/elicitation/complete`, so nothing else refers to it.
 * Everything else a 2026 input request carries is valid 2025 as it is.
 * @internal
 */
export function toLegacyParams(method: string, params: Record<string, unknown>): Record<string, unknown> {
  if (method !== "elicitation/create" || params.mode !== "url" || typeof params.elicitationId === "string") return params;
  return { ...params, elicitationId: globalThis.crypto.randomUUID() };
}
