/**
 * The portable backend's SHA-256 and HKDF under the `node` condition of
 * `#portable-hashes`: still `@noble/hashes`, but loaded on first use, so a
 * Node process (which seals with node:crypto) never pays for importing it.
 * Where the runtime cannot `require` an ES module (Node before 20.19),
 * node:crypto's SHA-256 and `hkdfSync` stand in: the same bytes, and as
 * audited.
 *
 * @module
 * @internal
 */
import { createHash, hkdfSync } from "node:crypto";
import { createRequire } from "node:module";
import type { PortableHashes } from "./portable-hashes.js";

type NobleSha2 = typeof import("@noble/hashes/sha2.js");
type NobleHkdf = typeof import("@noble/hashes/hkdf.js");

const EMPTY = new Uint8Array(0);

let loaded: PortableHashes | undefined;

function load(): PortableHashes {
  if (loaded !== undefined) return loaded;
  try {
    const require = createRequire(import.meta.url);
    const { sha256 } = require("@noble/hashes/sha2.js") as NobleSha2;
    const { hkdf } = require("@noble/hashes/hkdf.js") as NobleHkdf;
    loaded = { sha256: (data) => sha256(data), hkdfSha256: (ikm, info, length) => hkdf(sha256, ikm, undefined, info, length) };
  } catch {
    loaded = {
      sha256: (data) => createHash("sha256").update(data).digest(),
      hkdfSha256: (ikm, info, length) => new Uint8Array(hkdfSync("sha256", ikm, EMPTY, info, length)),
    };
  }
  return loaded;
}

/** `@noble/hashes`, loaded on the first digest. @internal */
export const portableHashes: PortableHashes = Object.freeze({
  sha256: (data: Uint8Array) => load().sha256(data),
  hkdfSha256: (ikm: Uint8Array, info: Uint8Array, length: number) => load().hkdfSha256(ikm, info, length),
});
