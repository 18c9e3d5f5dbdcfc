// The portable backend (@noble/hashes, and noble's AES loaded on first use):
// its SHA-256 and HKDF must equal node:crypto's, and a runtime that can only
// load the AES asynchronously must still produce the same tokens.
import { createCipheriv, createHash, hkdfSync } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createNobleBackend } from "../../runtime/state/primitives/backend-noble.js";
import { AesGcmCodec } from "../../runtime/state/primitives/codec.js";
import { NobleGcmKey } from "../../runtime/state/primitives/gcm-noble.js";
import { hkdfSha256 } from "../../runtime/state/primitives/hkdf.js";
import { type AesCore, type AesCoreLoader, nobleAesLoader } from "../../runtime/state/primitives/noble-aes.js";
import { __TESTS } from "../../runtime/state/token/testing.js";
import { InvalidRequestState } from "../../runtime/state/index.js";
import { SECRET } from "./helpers.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("SHA-256 and HKDF-SHA256 of the portable backend", () => {
  it("reproduce RFC 5869 test case 3 (salt and info empty)", () => {
    const okm = hkdfSha256(new Uint8Array(22).fill(0x0b), new Uint8Array(0), 42);
    expect(hex(okm)).toBe("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
  });

  it("match node:crypto for random keys, messages and lengths", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (message) => {
        expect(hex(createNobleBackend().sha256(message))).toBe(createHash("sha256").update(message).digest("hex"));
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.uint8Array({ maxLength: 80 }), fc.integer({ min: 0, max: 255 * 32 }), (ikm, info, length) => {
        const expected = Buffer.from(hkdfSync("sha256", ikm, new Uint8Array(0), info, length)).toString("hex");
        expect(hex(hkdfSha256(ikm, info, length))).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });

  it("rejects an output length HKDF cannot produce", () => {
    expect(() => hkdfSha256(new Uint8Array(32), new Uint8Array(0), 255 * 32 + 1)).toThrow(RangeError);
    expect(() => hkdfSha256(new Uint8Array(32), new Uint8Array(0), -1)).toThrow(RangeError);
  });
});

/** A loader that, like a runtime without require(esm), only hands out the AES core after `later()` resolved. */
function lateLoader(): AesCoreLoader & { loads: number } {
  let core: AesCore | undefined;
  const loader = {
    loads: 0,
    now: () => core,
    async later() {
      await new Promise((resolve) => setTimeout(resolve, 5));
      loader.loads++;
      core = nobleAesLoader.now()!;
      return core;
    },
  };
  return loader;
}

describe("noble's AES arriving late", () => {
  const nonce = Uint8Array.from({ length: 12 }, (_, i) => i * 7);
  const payload = new TextEncoder().encode('{"v":1,"s":"late"}');

  it("seals and opens through promises until it has loaded, with the very same tokens", async () => {
    const loader = lateLoader();
    const secret = new TextEncoder().encode(SECRET);
    const codec = new AesGcmCodec(createNobleBackend(loader), [secret], () => Uint8Array.from(nonce));
    const sealed = codec.seal(payload);
    expect(sealed).toBeInstanceOf(Promise);
    const token = await sealed;
    expect(token).toBe(__TESTS.sealWithNonce(SECRET, nonce, payload, "node"));
    expect(loader.loads).toBe(1);
    // Loaded now: synchronous from here on.
    expect(codec.seal(payload)).toBe(token);
    expect(Buffer.from(codec.unseal(token) as Uint8Array)).toEqual(Buffer.from(payload));
  });

  it("opens a token before the cipher has loaded, and still rejects a forged one", async () => {
    const token = __TESTS.sealWithNonce(SECRET, nonce, payload, "node");
    const codec = new AesGcmCodec(createNobleBackend(lateLoader()), [new TextEncoder().encode(SECRET)]);
    const opened = codec.unseal(token);
    expect(opened).toBeInstanceOf(Promise);
    expect(Buffer.from(await opened)).toEqual(Buffer.from(payload));
    // A changed ciphertext character (past the 4-byte kid and 12-byte nonce) must fail authentication.
    const at = 3 + 30;
    const forged = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    const other = new AesGcmCodec(createNobleBackend(lateLoader()), [new TextEncoder().encode(SECRET)]);
    const rejection = await Promise.resolve()
      .then(() => other.unseal(forged))
      .catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(InvalidRequestState);
    expect((rejection as InvalidRequestState).detail).toMatch(/failed authentication/);
  });

  it("keeps a key usable only after pending() has settled", async () => {
    const key = new Uint8Array(32).fill(9);
    const gcm = new NobleGcmKey(key, lateLoader());
    key.fill(0); // the key copied what it needs
    const pending = gcm.pending();
    expect(pending).toBeInstanceOf(Promise);
    expect(() => gcm.seal(nonce, new Uint8Array(0), payload, new Uint8Array(0))).toThrow(/await pending\(\)/);
    await pending;
    expect(gcm.pending()).toBeUndefined();
    const cipher = createCipheriv("aes-256-gcm", new Uint8Array(32).fill(9), nonce);
    const expected = Buffer.concat([cipher.update(payload), cipher.final(), cipher.getAuthTag()]);
    expect(Buffer.from(gcm.seal(nonce, new Uint8Array(0), payload, new Uint8Array(0)))).toEqual(expected);
  });
});
