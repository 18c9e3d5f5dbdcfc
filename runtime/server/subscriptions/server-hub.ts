/**
 * How a `Server` wires its subscription hub: every change also reaches its
 * open 2025 sessions, and a `subscriptions/listen` request is tracked in
 * flight while its stream stays open, then answered with its result.
 *
 * @internal
 * @module
 */
import type { ServerCapabilities } from "../../protocol/types.js";
import type { JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import type { HeldStream } from "../../protocol/context.js";
import type { RequestContextImpl } from "../context.js";
import { toErrorObject } from "../errors.js";
import type { RequestTracker } from "../request.js";
import type { ResultFinisher } from "../results.js";
import type { Route } from "../routes.js";
import type { ServerLogger } from "../types.js";
import { SubscriptionHub, type HubSettings } from "./hub.js";
import type { ListenAnswers, ListenEnd } from "./streams.js";
import { SUBSCRIPTION_ID_META } from "./streams.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";

/** What a hub forwards each change to besides its listener streams: the server's 2025 sessions. @internal */
export interface SessionNotifier {
  resourceUpdated(uri: string): void;
  listChanged(list: "tools" | "prompts" | "resources"): void;
}

/**
 * The hub of one server, whose events also go to its 2025 sessions.
 * @internal
 */
export function createServerHub(settings: HubSettings, logger: ServerLogger, sessions: SessionNotifier): SubscriptionHub {
  return new SubscriptionHub(settings, logger, (event) => {
    if (event.type === "resourceUpdated") sessions.resourceUpdated(event.uri);
    else sessions.listChanged(event.type.slice(0, -"ListChanged".length) as "tools");
  });
}

/** The requests a `notifications/cancelled` can reach, which a listen stream's transport may hold for its request. @internal */
export interface ListenTracker extends RequestTracker {
  /** Tracks a stream its transport holds in its request's place. */
  trackHeld(stream: HeldStream): void;
  untrackHeld(stream: HeldStream): void;
}

/** What answering a listen request needs from its server. @internal */
export interface ListenHost {
  readonly hub: SubscriptionHub;
  readonly inFlight: ListenTracker;
  readonly finisher: ResultFinisher;
  readonly logger: ServerLogger;
  readonly capabilities: () => ServerCapabilities;
}

/**
 * Serves one `subscriptions/listen` request until its stream ends: its result
 * on a graceful end, nothing when the client cancelled or went away.
 * @internal
 */
export function answerListen(host: ListenHost, route: Route, filter: unknown, ctx: RequestContextImpl): Promise<JsonRpcResponse | undefined> {
  host.inFlight.track(ctx);
  const answers = answersOf(host, route);
  try {
    // A promise that resolves with the answer itself: an idle stream holds no reaction of this layer.
    return host.hub.listen(ctx, filter, host.capabilities, answers);
  } catch (error) {
    return Promise.resolve(answers.failed(ctx, error));
  }
}

/** The answers of one server's listen requests, from how each stream ended; the streams stop being tracked with them. */
class ServerListenAnswers implements ListenAnswers {
  readonly host: ListenHost;
  readonly route: Route;

  constructor(host: ListenHost, route: Route) {
    this.host = host;
    this.route = route;
  }

  answer(ctx: RequestContextImpl, how: ListenEnd): JsonRpcResponse | undefined {
    this.host.inFlight.untrack(ctx);
    if (how === "gone" || ctx.isCancelledByClient) return undefined;
    try {
      const result = this.host.finisher.complete(this.route, ctx.method, { _meta: { [SUBSCRIPTION_ID_META]: ctx.requestId } }, ctx.protocolVersion);
      return { jsonrpc: "2.0", id: ctx.requestId, result };
    } catch (error) {
      return this.#refusal(ctx, error);
    }
  }

  failed(ctx: RequestContextImpl, error: unknown): JsonRpcResponse | undefined {
    this.host.inFlight.untrack(ctx);
    return this.#refusal(ctx, error);
  }

  handOver(ctx: RequestContextImpl, stream: HeldStream): void {
    this.host.inFlight.untrack(ctx);
    this.host.inFlight.trackHeld(stream);
  }

  answerHeld(stream: HeldStream, protocolVersion: string, how: ListenEnd): JsonRpcResponse | undefined {
    this.host.inFlight.untrackHeld(stream);
    // Gone, or cancelled by the client (notifications/cancelled ends a held stream as gone): no answer.
    if (how === "gone") return undefined;
    const id = stream.requestId;
    try {
      const result = this.host.finisher.complete(this.route, LISTEN_METHOD, { _meta: { [SUBSCRIPTION_ID_META]: id } }, protocolVersion);
      return { jsonrpc: "2.0", id, result };
    } catch (error) {
      return errorResponse(id, toErrorObject(error, LISTEN_METHOD, this.host.logger));
    }
  }

  /** The error answer of a listen request, or none when the client cancelled it. */
  #refusal(ctx: RequestContextImpl, error: unknown): JsonRpcResponse | undefined {
    if (ctx.isCancelledByClient) return undefined;
    return errorResponse(ctx.requestId, toErrorObject(error, ctx.method, this.host.logger));
  }
}

const LISTEN_METHOD = "subscriptions/listen";

const answersByHost = new WeakMap<ListenHost, ServerListenAnswers>();

/** One answers object per server (a route other than its usual one gets its own). */
function answersOf(host: ListenHost, route: Route): ServerListenAnswers {
  const known = answersByHost.get(host);
  if (known?.route === route) return known;
  const made = new ServerListenAnswers(host, route);
  if (known === undefined) answersByHost.set(host, made);
  return made;
}
