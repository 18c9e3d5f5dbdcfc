/**
 * Reading a web stream body into bytes within a bound, shared by the web
 * server handler (a request body) and the HTTP client (an answer).
 *
 * @internal
 */

/**
 * Reads `body` to its end; `null` (after cancelling the stream) once more
 * than `limit` bytes arrived.
 * @internal
 */
export async function readBounded(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
