import type { CryptoBackend } from "./backend.js";
import { isCanonicalBase64url } from "./base64url.js";
import { InvalidRequestState } from "./errors.js";
import { type DerivedKey, deriveKey, KEY_GENERATION_HINT, readKeyId } from "./keys.js";
import { hexOf } from "./key-sources.js";
import { encodeAfter, wipe } from "./scratch.js";

/**
 * Turns envelope bytes into an opaque string and back. The built-in codec
 * is AES-256-GCM; bring your own (a KMS, an existing token service) through
 * `RequestStateSecurity({ codec })`.
 *
 * Both methods may be sync or async. `unseal` must throw
 * {@link InvalidRequestState} for any token it did not mint; any other throw
 * is treated the same way (fails closed) and logged as a codec fault.
 * Expiry, request binding and principal binding are not the codec's job: the
 * SDK writes them into the bytes before `seal` and checks them after `unseal`.
 */
export interface RequestStateCodec {
  /** Encrypts and authenticates `bytes` into a token that is safe to put in a URL or JSON string. */
  seal(bytes: Uint8Array): string | Promise<string>;
  /**
   * Returns the bytes `seal` was given.
   *
   * @throws anything, for a token it did not seal or that was altered: the SDK rejects the state, so fail closed.
   */
  unseal(token: string): Uint8Array | Promise<Uint8Array>;
}

/** The built-in codec's token prefix, also the start of its associated data. */
const TOKEN_PREFIX = "v1.";

const KID_BYTES = 4;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = KID_BYTES + NONCE_BYTES;

/**
 * The codec's rejection of a token sealed under a key this ring does not
 * hold. Its key id is no secret (every token carries it in the clear), so
 * the log names it: during a rotation it tells which key an instance lacks.
 *
 * @internal
 */
export class UnknownKeyId extends InvalidRequestState {
  /** The token's key id, 8 hex digits. */
  readonly keyId: string;

  constructor(keyId: string, ring: readonly string[]) {
    super(`token was sealed with unknown key id ${keyId}; this ring holds ${ring.join(", ")} (a retired key, one not rolled out here yet, or another deployment's)`);
    this.keyId = keyId;
  }
}

/**
 * The built-in codec, byte-compatible with the reference SDK:
 * `"v1." + base64url(kid(4) ‖ nonce(12) ‖ ciphertext ‖ tag(16))`, AES-256-GCM
 * with associated data `"v1." ‖ kid`. The first key seals; every key opens,
 * found by key id (never by trying each key).
 *
 * @internal Reach it as `security.codec`.
 */
export class AesGcmCodec implements RequestStateCodec {
  readonly #backend: CryptoBackend;
  readonly #sealing: DerivedKey;
  readonly #byId: Map<number, DerivedKey>;
  readonly #random: (length: number) => Uint8Array;
  readonly #header = new Uint8Array(HEADER_BYTES);
  /** The ring's key ids as hex, the minting one first. */
  readonly keyIds: readonly string[];

  /**
   * @param secrets - checked secret bytes, the sealing one first.
   * @throws {RangeError} when two secrets yield the same key id (a repeated key).
   */
  constructor(backend: CryptoBackend, secrets: Uint8Array[], random?: (length: number) => Uint8Array) {
    this.#backend = backend;
    this.#random = random ?? backend.randomBytes;
    this.#byId = new Map();
    const positions = new Map<number, number>();
    const ring: DerivedKey[] = [];
    secrets.forEach((secret, index) => {
      const { keyBytes, ...key } = deriveKey(backend, secret);
      keyBytes.fill(0);
      const first = positions.get(key.id);
      if (first !== undefined) {
        throw new RangeError(
          `RequestStateSecurity: keys[${index}] repeats keys[${first}] (same secret, or the same 4-byte key id); ` +
            `drop the duplicate, or replace one of them with a fresh secret. ${KEY_GENERATION_HINT}`,
        );
      }
      positions.set(key.id, index);
      this.#byId.set(key.id, key);
      ring.push(key);
    });
    this.#sealing = ring[0]!;
    this.keyIds = Object.freeze(ring.map((key) => hexOf(key.kid)));
  }

  /**
   * Encrypts `bytes` under the first key with a fresh random nonce. Synchronous,
   * except on a runtime where the portable cipher loads asynchronously: until
   * it has, the token comes as a promise (which the codec contract allows).
   */
  seal(bytes: Uint8Array): string | Promise<string> {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`seal expected Uint8Array, got ${typeof bytes}`);
    const key = this.#sealing;
    const pending = this.#backend.aesKeyPending?.(key.aesKey);
    if (pending !== undefined) {
      const copy = Uint8Array.from(bytes);
      return pending.then(() => {
        try {
          return this.seal(copy);
        } finally {
          copy.fill(0);
        }
      });
    }
    const nonce = this.#random(NONCE_BYTES);
    if (!(nonce instanceof Uint8Array) || nonce.length !== NONCE_BYTES) {
      throw new RangeError(`random source expected to return ${NONCE_BYTES} bytes`);
    }
    // The backend copies the header before it returns, so one buffer serves every token.
    const header = this.#header;
    header.set(key.kid);
    header.set(nonce, KID_BYTES);
    return TOKEN_PREFIX + this.#backend.aesGcmSealBase64url(key.aesKey, nonce, key.aad, bytes, header);
  }

  /**
   * Seals the UTF-8 of `text` without keeping a copy of the plaintext.
   *
   * @internal The envelope path of `RequestStateSecurity.mint`.
   */
  sealText(text: string): string | Promise<string> {
    const pending = this.#backend.aesKeyPending?.(this.#sealing.aesKey);
    if (pending !== undefined) return pending.then(() => this.sealText(text));
    const bytes = encodeAfter(0, text);
    try {
      return this.seal(bytes);
    } finally {
      wipe(bytes);
    }
  }

  /**
   * Decrypts a token this key ring sealed. Synchronous, except (as for
   * {@link AesGcmCodec.seal}) while the portable cipher is still loading.
   *
   * @throws {InvalidRequestState} for anything else: wrong prefix, non-canonical
   * base64url, too short, unknown key id, failed authentication.
   */
  unseal(token: string): Uint8Array | Promise<Uint8Array> {
    if (typeof token !== "string") throw new InvalidRequestState("token is not a string");
    if (!token.startsWith(TOKEN_PREFIX)) throw new InvalidRequestState("token does not start with v1.");
    const body = token.slice(TOKEN_PREFIX.length);
    if (!isCanonicalBase64url(body)) throw new InvalidRequestState("token is not canonical unpadded base64url");
    const raw = this.#backend.decodeBase64urlTransient(body); // consumed before the next backend call
    if (raw.length < HEADER_BYTES + TAG_BYTES) throw new InvalidRequestState("token is too short");
    const key = this.#byId.get(readKeyId(raw, 0));
    if (!key) throw new UnknownKeyId(hexOf(raw.subarray(0, KID_BYTES)), this.keyIds);
    const pending = this.#backend.aesKeyPending?.(key.aesKey);
    if (pending !== undefined) return pending.then(() => this.unseal(token)); // decodes afresh: raw is transient
    const plaintext = this.#backend.aesGcmOpen(key.aesKey, raw.subarray(KID_BYTES, HEADER_BYTES), key.aad, raw.subarray(HEADER_BYTES));
    if (!plaintext) throw new InvalidRequestState("token failed authentication (tampered or forged)");
    return plaintext;
  }
}
