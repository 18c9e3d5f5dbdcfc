/**
 * Reading a JSON answer's body within a bound, so a server cannot make the
 * client buffer without end.
 *
 * @internal
 */
import { readBounded } from "../../../protocol/message.js";
import { HttpTransportError } from "./errors.js";

/** Default bound on one answer (a JSON body, or one SSE event): 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * The body as text. A declared `Content-Length` within the bound is read in
 * one go (the runtime holds it to that length); anything else is read chunk
 * by chunk and abandoned past the bound.
 *
 * @throws HttpTransportError naming the bound when the body exceeds it
 */
export async function readBoundedText(response: Response, limit: number, what: string): Promise<string> {
  const declared = response.headers.get("content-length");
  const tooLarge = () =>
    new HttpTransportError(
      response.status,
      `${what}: the server's answer exceeded ${limit} bytes (maxResponseBytes) and was not read; raise maxResponseBytes if it really is this large.`,
    );
  if (declared !== null && /^\d+$/.test(declared)) {
    if (Number(declared) > limit) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    return response.text();
  }
  const body = response.body;
  if (body === null) return "";
  const bytes = await readBounded(body, limit);
  if (bytes === null) throw tooLarge();
  return new TextDecoder().decode(bytes);
}
