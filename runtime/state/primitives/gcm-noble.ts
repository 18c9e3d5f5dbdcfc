import { type AesCore, type AesCoreLoader, nobleAesLoader } from "./noble-aes.js";

/**
 * AES-256-GCM (NIST SP 800-38D) over noble's AES core, with the work that
 * depends only on the key done once: the expanded key schedule and the GHASH
 * multiplication table. `gcm()` from `@noble/ciphers` redoes both for every
 * message, which dominates the cost of a short token.
 *
 * Only 96-bit nonces (the token format's) are supported. Like noble's own
 * GHASH, the table lookups are not constant-time; node:crypto (the default
 * wherever it exists) uses OpenSSL's constant-time implementation.
 *
 * noble's AES is loaded on first use (see {@link nobleAesLoader}); where that
 * can only happen asynchronously, the key keeps its bytes until the core is
 * there, and {@link NobleGcmKey.pending} says what to await before sealing.
 *
 * @internal
 */
export class NobleGcmKey {
  readonly #loader: AesCoreLoader;
  /** The raw key, held only until the AES core has loaded and the schedule is built. */
  #key: Uint8Array | undefined;
  #aes: AesCore | undefined;
  #xk: Uint32Array | undefined;
  /** GHASH table: for byte position i and byte value b, four words of (b at i)·H. */
  #table: Int32Array | undefined;

  constructor(key: Uint8Array, loader: AesCoreLoader = nobleAesLoader) {
    this.#loader = loader;
    const aes = loader.now();
    if (aes !== undefined) this.#prepare(aes, key);
    else this.#key = Uint8Array.from(key);
  }

  /** A promise while noble's AES is still loading on this runtime; `undefined` once seal and open can run. */
  pending(): Promise<void> | undefined {
    if (this.#aes !== undefined || this.#loader.now() !== undefined) return undefined;
    return this.#loader.later().then(() => undefined);
  }

  #prepare(aes: AesCore, key: Uint8Array): void {
    const xk = aes.expandKeyLE(key);
    const h = aes.encryptBlock(xk, new Uint8Array(16)); // §6.4: H = E(K, 0^128), computed in place
    this.#table = ghashTable(h);
    h.fill(0);
    this.#xk = xk;
    this.#aes = aes;
  }

  /** The AES core and key schedule, built on first use when the core came late. */
  #core(): { aes: AesCore; xk: Uint32Array } {
    if (this.#aes === undefined) {
      const aes = this.#loader.now();
      if (aes === undefined) throw new Error("noble AES has not loaded yet: await pending() before sealing or opening");
      this.#prepare(aes, this.#key!);
      this.#key!.fill(0);
      this.#key = undefined;
    }
    return { aes: this.#aes!, xk: this.#xk! };
  }

  /** Encrypts; returns `prefix ‖ ciphertext ‖ tag(16)`. */
  seal(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, prefix: Uint8Array): Uint8Array {
    const { aes: unsafe, xk } = this.#core();
    const counter = initialCounter(nonce);
    // encryptBlock works in place: hand it a copy of J0.
    const tagMask = unsafe.encryptBlock(xk, counter.slice());
    counter[15] = 2; // inc32(J0): the first block of payload keystream
    // The output starts at offset 0 of a fresh buffer, so body (at a 16-byte prefix) is 32-bit aligned as ctr32 needs.
    const out = new Uint8Array(prefix.length + plaintext.length + 16);
    out.set(prefix);
    const body = out.subarray(prefix.length, prefix.length + plaintext.length);
    body.set(plaintext);
    if (body.byteOffset % 4 === 0) unsafe.ctr32(xk, false, counter, body, body);
    else body.set(unsafe.ctr32(xk, false, counter, Uint8Array.from(body)));
    out.set(this.#tag(aad, body, tagMask), prefix.length + plaintext.length);
    return out;
  }

  /** Decrypts `ciphertext ‖ tag`; `undefined` when the tag does not match. */
  open(nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array | undefined {
    if (sealed.length < 16) return undefined;
    const { aes: unsafe, xk } = this.#core();
    const body = sealed.subarray(0, sealed.length - 16);
    const given = sealed.subarray(sealed.length - 16);
    const counter = initialCounter(nonce);
    const expected = this.#tag(aad, body, unsafe.encryptBlock(xk, counter.slice()));
    let difference = 0;
    for (let i = 0; i < 16; i++) difference |= expected[i]! ^ given[i]!;
    if (difference !== 0) return undefined; // verify before decrypting: no unauthenticated plaintext
    counter[15] = 2;
    const plaintext = Uint8Array.from(body); // a fresh copy is aligned for ctr32
    return unsafe.ctr32(xk, false, counter, plaintext, plaintext);
  }

  /** §7.1 step 5–6: GHASH over AAD ‖ pad ‖ C ‖ pad ‖ lengths, masked with E(K, J0). */
  #tag(aad: Uint8Array, ciphertext: Uint8Array, mask: Uint8Array): Uint8Array {
    const state = new Int32Array(4);
    this.#absorb(state, aad);
    this.#absorb(state, ciphertext);
    const lengths = new Uint8Array(16);
    writeBitLength(lengths, 0, aad.length);
    writeBitLength(lengths, 8, ciphertext.length);
    this.#absorb(state, lengths);
    const tag = new Uint8Array(16);
    for (let i = 0; i < 16; i++) tag[i] = (state[i >> 2]! >>> (24 - 8 * (i & 3))) ^ mask[i]!;
    return tag;
  }

  /** Absorbs `data`, zero-padded to whole blocks, into the GHASH state. */
  #absorb(state: Int32Array, data: Uint8Array): void {
    const table = this.#table!;
    for (let offset = 0; offset < data.length; offset += 16) {
      let y0 = state[0]!,
        y1 = state[1]!,
        y2 = state[2]!,
        y3 = state[3]!;
      y0 ^= readWord(data, offset);
      y1 ^= readWord(data, offset + 4);
      y2 ^= readWord(data, offset + 8);
      y3 ^= readWord(data, offset + 12);
      let z0 = 0,
        z1 = 0,
        z2 = 0,
        z3 = 0;
      for (let i = 0; i < 16; i++) {
        const word = i < 4 ? y0 : i < 8 ? y1 : i < 12 ? y2 : y3;
        const at = ((i << 8) | ((word >>> (24 - 8 * (i & 3))) & 0xff)) << 2;
        z0 ^= table[at]!;
        z1 ^= table[at + 1]!;
        z2 ^= table[at + 2]!;
        z3 ^= table[at + 3]!;
      }
      state[0] = z0;
      state[1] = z1;
      state[2] = z2;
      state[3] = z3;
    }
  }
}

/** J0 = nonce ‖ 0x00000001 (§7.1 step 2, for a 96-bit IV). */
function initialCounter(nonce: Uint8Array): Uint8Array {
  if (nonce.length !== 12) throw new RangeError(`"nonce" expected 12 bytes, got ${nonce.length}`);
  const counter = new Uint8Array(16);
  counter.set(nonce);
  counter[15] = 1;
  return counter;
}

/** Big-endian word at `offset`, reading zeros past the end (the block padding). */
function readWord(data: Uint8Array, offset: number): number {
  return ((data[offset] ?? 0) << 24) | ((data[offset + 1] ?? 0) << 16) | ((data[offset + 2] ?? 0) << 8) | (data[offset + 3] ?? 0);
}

function writeBitLength(out: Uint8Array, offset: number, bytes: number): void {
  const bits = bytes * 8;
  const high = Math.floor(bits / 0x100000000);
  const low = bits >>> 0;
  out[offset] = high >>> 24;
  out[offset + 1] = high >>> 16;
  out[offset + 2] = high >>> 8;
  out[offset + 3] = high;
  out[offset + 4] = low >>> 24;
  out[offset + 5] = low >>> 16;
  out[offset + 6] = low >>> 8;
  out[offset + 7] = low;
}

/**
 * (b placed at byte i)·H for every i and b. In GCM's bit order, bit k of a
 * block (k = 0 is the first byte's top bit) stands for x^k, so the table is
 * built from H·x^k: one right shift per step, reduced by R = 0xe1 ‖ 0^120 (§6.3).
 */
function ghashTable(h: Uint8Array): Int32Array {
  const powers = new Int32Array(128 * 4);
  let v0 = readWord(h, 0),
    v1 = readWord(h, 4),
    v2 = readWord(h, 8),
    v3 = readWord(h, 12);
  for (let k = 0; k < 128; k++) {
    powers[k * 4] = v0;
    powers[k * 4 + 1] = v1;
    powers[k * 4 + 2] = v2;
    powers[k * 4 + 3] = v3;
    const carry = v3 & 1;
    v3 = (v3 >>> 1) | (v2 << 31);
    v2 = (v2 >>> 1) | (v1 << 31);
    v1 = (v1 >>> 1) | (v0 << 31);
    v0 = (v0 >>> 1) ^ (carry ? 0xe1000000 : 0);
  }
  const table = new Int32Array(16 * 256 * 4);
  for (let i = 0; i < 16; i++) {
    for (let b = 1; b < 256; b++) {
      const low = b & -b; // lowest set bit: bit 7 - j of the byte stands for x^(8i + j)
      const j = 7 - Math.log2(low);
      const from = ((i << 8) | (b & (b - 1))) << 2;
      const to = ((i << 8) | b) << 2;
      const power = (8 * i + j) << 2;
      table[to] = table[from]! ^ powers[power]!;
      table[to + 1] = table[from + 1]! ^ powers[power + 1]!;
      table[to + 2] = table[from + 2]! ^ powers[power + 2]!;
      table[to + 3] = table[from + 3]! ^ powers[power + 3]!;
    }
  }
  powers.fill(0);
  return table;
}
