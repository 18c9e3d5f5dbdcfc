/**
 * `mcp-roundtrip/ext/redis`: a one-time-token store on Redis for a fleet
 * ({@link RedisReplayStore}), and {@link connectRedisReplayStore}, which
 * opens the node-redis client for it; a pub/sub broadcaster of
 * subscription events ({@link RedisBroadcaster}, {@link connectRedisBroadcaster}). Needs the optional peer dependency
 * `redis` (node-redis 5 or 6): `npm install redis`.
 *
 * @packageDocumentation
 */
import { loadPeer } from "../../protocol/peer.js";
import { RedisReplayStore, type RedisReplayStoreOptions } from "./store.js";
import { RedisBroadcaster, type RedisBroadcasterOptions, type RedisSubscriberClient } from "./broadcaster.js";
import {
  adoptRedisConnection,
  checkConnectionOptions,
  openRedisConnection,
  type CreateRedisClient,
  type RedisConnection,
  type RedisConnectionOptions,
} from "./connection.js";
import { hasHashTag, type CreateRedisCluster } from "./cluster.js";

export { RedisReplayStore, type RedisCommandClient, type RedisReplayStoreOptions } from "./store.js";
export { RedisBroadcaster, type RedisBroadcasterOptions, type RedisSubscriberClient } from "./broadcaster.js";
export type { NodeRedisClient, RedisConnectionOptions } from "./connection.js";

type NodeRedis = { createClient: CreateRedisClient; createCluster?: CreateRedisCluster };

// Loaded with the subpath, so a missing peer is reported at import, naming what to install.
const redis = await loadPeer<NodeRedis>("redis", "mcp-roundtrip/ext/redis", "npm install redis");

/** Where the `connect*` helpers find Redis: a URL, or {@link RedisConnectionOptions} (a URL and client options, or a client of yours). */
export type RedisTarget = string | RedisConnectionOptions | undefined;

function connectionOptions(target: RedisTarget, caller: string): RedisConnectionOptions {
  const options = typeof target === "string" ? { url: target } : (target ?? {});
  checkConnectionOptions(options, caller);
  return options;
}

/** What {@link connectRedisReplayStore} returns: the store, its health, and how to close its connection. */
export interface ConnectedRedisReplayStore {
  /** Pass it as the `replay` option of `RequestStateSecurity`, so a sealed state is accepted once across every instance. */
  store: RedisReplayStore;
  /** True while the connection is up; pass it in `serveHttp`'s `healthChecks` so `/healthz` reports an outage. */
  healthy(): boolean;
  /** Closes the Redis connection (call it from `serveHttp`'s `onShutdown`). */
  close(): Promise<void>;
}

/**
 * Connects to Redis with node-redis and returns a store on that connection.
 * The connection survives outages: it logs the loss (never an unhandled
 * `error` event), reconnects with backoff, and fails each command within
 * `commandTimeoutMs` meanwhile, so rounds that carry state are refused
 * (fail closed) until Redis is back, and the process keeps serving the rest.
 *
 * @param target - a URL such as `redis://127.0.0.1:6379` (default: node-redis's own, localhost:6379), or {@link RedisConnectionOptions}.
 * @param options - key prefix and per-owner quota.
 * @throws TypeError or RangeError for a malformed option; whatever node-redis throws when it cannot connect the first time.
 * @example
 * ```ts
 * const replay = await connectRedisReplayStore({ url: process.env.REDIS_URL, logger: console });
 * const security = RequestStateSecurity.fromEnv(undefined, { audience: "deployer", replay: replay.store });
 * await serveHttp(server, { handleSignals: true, healthPath: "/healthz", healthChecks: [replay.healthy], onShutdown: replay.close });
 * ```
 */
export async function connectRedisReplayStore(target?: RedisTarget, options: RedisReplayStoreOptions = {}): Promise<ConnectedRedisReplayStore> {
  const reach = connectionOptions(target, "connectRedisReplayStore");
  // In a Redis Cluster each script's keys must share a slot: the prefix carries a hash tag, so every key of the store does.
  let storeOptions = options;
  if (reach.cluster !== undefined) {
    const prefix = options.prefix ?? "{mcp:replay}:";
    if (typeof prefix === "string" && !hasHashTag(prefix)) {
      throw new TypeError(
        `connectRedisReplayStore: in a Redis Cluster the prefix must hold a {hash tag}, so every key of a script lands in one slot; got ${JSON.stringify(prefix)}, use e.g. "{${prefix.replace(/[{}]/g, "")}}"`,
      );
    }
    storeOptions = { ...options, prefix };
  }
  const connection = await openRedisConnection(redis, reach, "replay store");
  try {
    const store = new RedisReplayStore(connection.client, storeOptions);
    // Back from an outage: mark the epoch at once (a Redis that came back empty gets a new one), before the next claim.
    connection.client.on?.("ready", () => void store.ready().catch(() => {}));
    return { store, healthy: connection.healthy, close: connection.close };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** What {@link connectRedisBroadcaster} returns: the broadcaster, its health, and how to close its two connections. */
export interface ConnectedRedisBroadcaster {
  /** Pass it as `subscriptions.broadcaster`, so a change on one instance reaches the streams of all. */
  broadcaster: RedisBroadcaster;
  /** True while both connections are up (events published meanwhile are lost: Redis pub/sub delivers at most once). */
  healthy(): boolean;
  /** Unsubscribes and closes both Redis connections (call it from `serveHttp`'s `onShutdown`). */
  close(): Promise<void>;
}

/**
 * Connects to Redis with node-redis (two connections: one publishes, one
 * listens) and returns a broadcaster subscribed to its channel. Both
 * connections survive outages as {@link connectRedisReplayStore}'s does, and
 * the listening one subscribes again when it reconnects.
 *
 * @param target - a URL such as `redis://127.0.0.1:6379` (default: node-redis's own, localhost:6379), or {@link RedisConnectionOptions}
 *   (with `client`, the listening connection is `client.duplicate()`).
 * @param options - the channel (default `"mcp:subscriptions"`, one per service sharing a Redis) and `onError`.
 * @throws TypeError or RangeError for a malformed option; whatever node-redis throws when it cannot connect the first time.
 * @example
 * ```ts
 * const fleet = await connectRedisBroadcaster(process.env.REDIS_URL);
 * const mcp = new McpServer(info, { subscriptions: { broadcaster: fleet.broadcaster } });
 * await serveHttp(mcp, { handleSignals: true, onShutdown: fleet.close });
 * ```
 */
export async function connectRedisBroadcaster(
  target?: RedisTarget,
  options: Omit<RedisBroadcasterOptions, "publisher" | "subscriber"> = {},
): Promise<ConnectedRedisBroadcaster> {
  const connection = connectionOptions(target, "connectRedisBroadcaster");
  const publishing = await openRedisConnection(redis, connection, "broadcaster (publish)");
  let listening: RedisConnection | undefined;
  try {
    listening = await adoptRedisConnection(publishing.client.duplicate(), connection, "broadcaster (subscribe)");
    const broadcaster = await RedisBroadcaster.create({
      ...options,
      publisher: publishing.client,
      subscriber: listening.client as unknown as RedisSubscriberClient,
    });
    const subscribed = listening;
    return {
      broadcaster,
      healthy: () => publishing.healthy() && subscribed.healthy(),
      close: async () => {
        await broadcaster.close().catch(() => {});
        await Promise.all([subscribed.close(), publishing.close()]);
      },
    };
  } catch (error) {
    await Promise.all([listening?.close(), publishing.close()]);
    throw error;
  }
}
