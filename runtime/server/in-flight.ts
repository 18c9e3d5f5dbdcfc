import type { JsonRpcId } from "../jsonrpc/messages.js";
import type { RequestContext } from "../transport/types.js";
import { principalOf } from "../state/index.js";
import type { RequestContextImpl } from "./context.js";

/**
 * Requests being answered, by JSON-RPC id, so `notifications/cancelled` can
 * abort them.
 * @internal
 */
export class InFlightRequests {
  private readonly byId = new Map<JsonRpcId, RequestContextImpl>();

  track(ctx: RequestContextImpl): void {
    this.byId.set(ctx.requestId, ctx);
  }

  untrack(ctx: RequestContextImpl): void {
    // Another caller may reuse the id meanwhile; only remove our own entry.
    if (this.byId.get(ctx.requestId) === ctx) this.byId.delete(ctx.requestId);
    ctx.dispose();
  }

  /**
   * Cancels the request with `requestId`. Ids are chosen per connection and
   * one server may serve many callers, so only the same principal (or two
   * unauthenticated callers) may cancel.
   */
  cancel(requestId: JsonRpcId, reason: string | undefined, context: RequestContext | undefined): void {
    const target = this.byId.get(requestId);
    if (target === undefined) return;
    let same: boolean;
    try {
      const canceller = context?.authInfo === undefined ? undefined : principalOf(context.authInfo);
      same = canceller === target.principal;
    } catch {
      // An identity that cannot be read (authInfo without a clientId) proves nothing: do not cancel.
      same = false;
    }
    if (!same) return;
    target.cancel(reason ?? "cancelled by the client", true);
  }
}
