/**
 * A reusable buffer for text that is encoded only to be hashed or encrypted
 * straight away, so each token does not allocate (and later collect) its
 * plaintext twice. Every caller consumes the view synchronously, before any
 * other code can run, and wipes it afterwards.
 *
 * @module
 * @internal
 */

const encoder = new TextEncoder();
/** Larger texts get their own buffer rather than growing the shared one for ever. */
const MAX_SCRATCH_BYTES = 64 * 1024;
let scratch = new Uint8Array(4096);

/**
 * UTF-8 of `text`, placed after `prefix` bytes of room in a shared buffer.
 * The view is valid until the next call; wipe it with {@link wipe} once used.
 *
 * @internal
 */
export function encodeAfter(prefix: number, text: string): Uint8Array {
  const needed = prefix + text.length * 3;
  let target = scratch;
  if (needed > target.length) {
    target = new Uint8Array(needed);
    if (needed <= MAX_SCRATCH_BYTES) scratch = target;
  }
  const { written } = encoder.encodeInto(text, target.subarray(prefix));
  return target.subarray(0, prefix + written);
}

/** Zeroes a view returned by {@link encodeAfter}. @internal */
export function wipe(view: Uint8Array): void {
  view.fill(0);
}
