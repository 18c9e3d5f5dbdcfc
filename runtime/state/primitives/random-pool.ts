/**
 * Hands out random bytes from a pooled buffer refilled by the platform CSPRNG,
 * so a 12-byte nonce costs a copy instead of a native call each time (the
 * same trick Node uses for `randomUUID`). Bytes are never handed out twice.
 *
 * @param fill - fills a buffer with cryptographically secure random bytes.
 * @internal
 */
export function pooledRandom(fill: (buffer: Uint8Array<ArrayBuffer>) => void, poolBytes = 4096): (length: number) => Uint8Array {
  const pool = new Uint8Array(poolBytes);
  let offset = poolBytes;
  return (length: number) => {
    if (length > poolBytes / 4) {
      const out = new Uint8Array(length);
      fill(out);
      return out;
    }
    if (offset + length > poolBytes) {
      fill(pool);
      offset = 0;
    }
    const out = pool.slice(offset, offset + length);
    // Wipe what was handed out, so the pool never holds a copy of a live nonce or salt.
    pool.fill(0, offset, offset + length);
    offset += length;
    return out;
  };
}
