// A message handler wrapped to record every request that crossed the wire, for
// tests that assert what a client sent (its envelope, its answers, its retries).
import type { JsonRpcRequest } from "mcp-roundtrip/client";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";

/** Wraps `inner` (a server's handler) to record every request that crossed the wire, in order. */
export function tap(inner: MessageHandler) {
  const requests: JsonRpcRequest[] = [];
  return {
    requests,
    async handle(message: unknown, context?: RequestContext) {
      requests.push(structuredClone(message) as JsonRpcRequest);
      return inner.handle(message, context);
    },
  };
}
