import type { JsonRpcId } from "../protocol/jsonrpc/messages.js";
import { keyOf } from "../protocol/jsonrpc/ids.js";
import type { RequestContext } from "../protocol/context.js";
import { principalOf } from "../state/index.js";
import type { RequestContextImpl } from "./context.js";

/**
 * Requests being answered, by JSON-RPC id, so `notifications/cancelled` can
 * abort them.
 * @internal
 */
export class InFlightRequests {
  /**
   * A dictionary-mode object rather than a `Map`: every request adds and
   * removes one entry, and V8 links each table a `Map` outgrows or shrinks
   * to its successor, so under load the chain (and every context in it)
   * outlives young-generation collections and grows the heap.
   */
  private readonly byId: Record<string, RequestContextImpl> = Object.create(null);

  track(ctx: RequestContextImpl): void {
    this.byId[keyOf(ctx.requestId)] = ctx;
  }

  untrack(ctx: RequestContextImpl): void {
    // Another caller may reuse the id meanwhile; only remove our own entry.
    const key = keyOf(ctx.requestId);
    if (this.byId[key] === ctx) delete this.byId[key];
    ctx.dispose();
  }

  /**
   * Cancels the request with `requestId`. Ids are chosen per connection and
   * one server may serve many callers, so only the same principal (or two
   * unauthenticated callers) may cancel.
   */
  cancel(requestId: JsonRpcId, reason: string | undefined, context: RequestContext | undefined): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const target = this.byId[keyOf(requestId)];
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
