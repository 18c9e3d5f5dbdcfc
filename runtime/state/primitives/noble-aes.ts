import type * as NobleAesModule from "@noble/ciphers/aes.js";
import { lazyModule, requireSync } from "../../protocol/require-sync.js";

/** The block-level AES of `@noble/ciphers` that {@link NobleGcmKey} builds GCM on. @internal */
export type AesCore = typeof NobleAesModule.unsafe;

/**
 * Where the portable backend gets noble's AES: `now()` when it can be had
 * synchronously, `later()` otherwise. A parameter rather than a module
 * constant so a test can play a runtime that only loads it asynchronously.
 *
 * @internal
 */
export interface AesCoreLoader {
  /** The core, or `undefined` when it cannot be loaded synchronously (yet). */
  now(): AesCore | undefined;
  /** Resolves once the core is loaded; `now()` then returns it. */
  later(): Promise<AesCore>;
}

/**
 * noble's AES, loaded on first use: importing it builds its lookup tables
 * (some 9 MiB and tens of milliseconds), which a process sealing with
 * node:crypto never needs. Synchronous through `require` where the runtime has
 * `require(esm)`, else one `import()` awaited by the first seal or open.
 *
 * @internal
 */
export const nobleAesLoader: AesCoreLoader = lazyModule(
  () => requireSync<typeof NobleAesModule>("@noble/ciphers/aes.js")?.unsafe,
  () => import("@noble/ciphers/aes.js").then((loaded) => loaded.unsafe),
);
