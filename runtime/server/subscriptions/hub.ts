/**
 * One server's subscription machinery in one place: its listener streams,
 * the broadcaster that carries changes between instances, and what it
 * honours. `Server` holds one and forwards to it.
 *
 * @module
 */
import type { ServerCapabilities } from "../../protocol/types.js";
import { isThenable } from "../../protocol/guards.js";
import type { RequestContextImpl } from "../context.js";
import type { ServerLogger } from "../types.js";
import { InProcessBroadcaster, type Broadcaster, type SubscriptionEvent } from "./broadcaster.js";
import { honouredByCapabilities, type SubscriptionType } from "./filter.js";
import { SubscriptionStreams, type ListenAnswers } from "./streams.js";
import type { JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";

/** @internal */
export interface HubSettings {
  readonly maxListeners: number;
  readonly broadcaster: Broadcaster | undefined;
  readonly honour: ReadonlySet<SubscriptionType> | undefined;
}

/** @internal */
export class SubscriptionHub {
  readonly #streams: SubscriptionStreams;
  readonly #broadcaster: Broadcaster;
  readonly #honour: ReadonlySet<SubscriptionType> | undefined;
  readonly #logger: ServerLogger;
  #unsubscribe: (() => void) | undefined;

  /** @param alsoTo - receives every event too (the server's 2025 sessions) */
  constructor(settings: HubSettings, logger: ServerLogger, alsoTo: (event: SubscriptionEvent) => void) {
    this.#logger = logger;
    this.#streams = new SubscriptionStreams(settings.maxListeners, logger);
    this.#honour = settings.honour;
    this.#broadcaster = settings.broadcaster ?? new InProcessBroadcaster();
    this.#unsubscribe = this.#broadcaster.subscribe((event) => {
      this.#streams.deliver(event);
      alsoTo(event);
    });
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Serves one listen request (see `SubscriptionStreams.listen`). */
  listen(ctx: RequestContextImpl, requested: unknown, capabilities: () => ServerCapabilities, answers: ListenAnswers): Promise<JsonRpcResponse | undefined> {
    return this.#streams.listen(ctx, requested, this.#honour ?? honouredByCapabilities(capabilities()), answers);
  }

  /** Sends a change to every server on the broadcaster, this one included; a failure is logged, never thrown. */
  publish(event: SubscriptionEvent): void {
    try {
      const pending = this.#broadcaster.publish(event);
      if (isThenable(pending)) {
        void Promise.resolve(pending).catch((error: unknown) =>
          this.#logger.warn(`${event.type} was not broadcast: listeners on other instances may miss it`, { error }),
        );
      }
    } catch (error) {
      this.#logger.warn(`${event.type} was not broadcast: listeners may miss it`, { error });
    }
  }

  closeAll(reason: string, final: boolean): number {
    return this.#streams.closeAll(reason, final);
  }

  /** Closes every stream for good and stops receiving from the broadcaster. Idempotent. */
  close(reason: string): void {
    this.#streams.closeAll(reason, true);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
