import { stringList, type Correction } from "./types.js";

/**
 * Stops requiring properties a receiver must tolerate missing.
 *
 * The 2026-07-28 caching rules make servers send `ttlMs` and `cacheScope`,
 * yet tell clients to assume `ttlMs: 0` when it is absent (older servers),
 * and the spec's own `resources/read` response example omits both. Scoped to
 * validators: the types keep them required, so servers built on them send them.
 */
const optionalOnReceipt: Correction = (target, entry) => {
  const properties = new Set(stringList(entry, "properties"));
  for (const name of stringList(entry, "definitions")) {
    const def = target.schema.$defs[name];
    if (!def || !Array.isArray(def.required)) throw new Error(`overlay optional-on-receipt: ${name} has no "required" list`);
    const required = def.required as string[];
    const kept = required.filter((property) => !properties.has(property));
    def.required = kept;
    if (kept.length !== required.length - properties.size) {
      throw new Error(`overlay optional-on-receipt: ${name} does not require all of ${[...properties].join(", ")} any more`);
    }
  }
};
export default optionalOnReceipt;
