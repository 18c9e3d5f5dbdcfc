/**
 * The ids of 2025 sessions. Whoever holds one speaks as its session, so it
 * must be unguessable; and a server may hold many thousands of idle
 * sessions, so it should be short: 22 characters of the base64url alphabet,
 * each from its own random byte (132 random bits), a 40-byte string on V8
 * where a UUID's 36 characters take 56 bytes and carry only 122 random bits.
 *
 * @internal
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const LENGTH = 22;
/** Random bytes drawn a batch at a time: one call to the CSPRNG per 64 ids. */
const BATCH = 64;

const codes = ALPHABET.split("").map((char) => char.charCodeAt(0));
const pool = new Uint8Array(LENGTH * BATCH);
let used = pool.length;
const chars: number[] = new Array<number>(LENGTH).fill(0);

/** A new session id: 22 visible ASCII characters (`[A-Za-z0-9_-]`), 132 random bits. @internal */
export function newSessionId(): string {
  if (used === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  // 256 is a multiple of 64: the low six bits of a uniform byte are uniform.
  for (let i = 0; i < LENGTH; i++) chars[i] = codes[pool[used++]! & 63]!;
  // One flat string (no rope of concatenations to flatten later).
  return String.fromCharCode(...chars);
}
