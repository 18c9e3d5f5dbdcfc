/**
 * What a 2025 session's server is told when the client gives up on a
 * request: loaded on the first such cancel, since a 2026-07-28 server is
 * told by the closed stream alone.
 *
 * @internal
 * @module
 */
import type { JsonRpcId, JsonRpcNotification } from "../../../protocol/jsonrpc/messages.js";

/**
 * The `notifications/cancelled` a 2025 session's server gets for request
 * `id` (there a closed stream does not cancel: 2025-11-25 transports,
 * "disconnection SHOULD NOT be interpreted as the client cancelling its
 * request"); its reason is neutral, never the caller's.
 */
function cancelNotice(id: JsonRpcId, reason: unknown): JsonRpcNotification {
  const timedOut = (reason as { name?: unknown } | null)?.name === "RequestTimeout";
  const text = timedOut ? "The client's timeout for this request elapsed." : "The client cancelled this request.";
  return { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: text } };
}

/**
 * POSTs the notice for request `id` through `post`, best effort: its answer is not awaited, a failure ignored.
 * @internal
 */
export function sendCancel(post: (message: JsonRpcNotification) => Promise<{ response: Response }>, id: JsonRpcId, reason: unknown): void {
  post(cancelNotice(id, reason)).then(
    ({ response }) => response.body?.cancel().catch(() => {}),
    () => {},
  );
}
