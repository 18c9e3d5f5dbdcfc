// Issue 36, item 8: sealing runs only audited primitives. node:crypto on Node, @noble/hashes and
// @noble/ciphers elsewhere; no hash, MAC or key derivation written by hand may come back into runtime/.
// The fingerprints below are what any hand-written SHA-2 or HMAC must contain: the round constants
// (FIPS 180-4 §4.2.2), the initial hash values (§5.3.3), the HMAC pads (RFC 2104 §2).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../client/ensure-built.js";

const FINGERPRINTS: ReadonlyArray<readonly [string, RegExp]> = [
  ["a SHA-256 round constant (K[0])", /0x428a2f98/i],
  ["a SHA-256 round constant (K[63])", /0xc67178f2/i],
  ["the SHA-256 initial hash value (H0[0])", /0x6a09e667/i],
  ["the SHA-512 round constant K[0]", /0xd728ae22/i],
  ["HMAC's inner pad", /\^\s*0x36\b/],
  ["HMAC's outer pad", /\^\s*0x5c\b/],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe("runtime/ crypto", () => {
  it("holds no hand-written hash, MAC or key derivation", () => {
    const found: string[] = [];
    for (const file of sources(join(root, "runtime"))) {
      const text = readFileSync(file, "utf8");
      for (const [what, pattern] of FINGERPRINTS) if (pattern.test(text)) found.push(`${relative(root, file)}: ${what}`);
    }
    expect(found).toEqual([]);
  });

  it("takes SHA-256 and HKDF from node:crypto and @noble/hashes", () => {
    const primitives = join(root, "runtime/state/primitives");
    expect(readFileSync(join(primitives, "backend-node.ts"), "utf8")).toMatch(/hkdfSync/);
    for (const file of ["portable-hashes.ts", "portable-hashes-node.ts"]) {
      expect(readFileSync(join(primitives, file), "utf8")).toMatch(/"@noble\/hashes\/sha2\.js"/);
      expect(readFileSync(join(primitives, file), "utf8")).toMatch(/"@noble\/hashes\/hkdf\.js"/);
    }
    expect(readFileSync(join(primitives, "backend-noble.ts"), "utf8")).toMatch(/from "#portable-hashes"/);
  });
});
