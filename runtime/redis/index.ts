/**
 * `mcp-roundtrip/redis`: a one-time-token store on Redis for a fleet
 * ({@link RedisReplayStore}), and {@link connectRedisReplayStore}, which
 * opens the node-redis client for it; a pub/sub broadcaster of
 * subscription events ({@link RedisBroadcaster}, {@link connectRedisBroadcaster}). Needs the optional peer dependency
 * `redis` (node-redis 5 or 6): `npm install redis`.
 *
 * @packageDocumentation
 */
import { loadPeer } from "../protocol/peer.js";
import { RedisReplayStore, type RedisReplayStoreOptions } from "./store.js";
import { RedisBroadcaster, type RedisBroadcasterOptions, type RedisSubscriberClient } from "./broadcaster.js";

export { RedisReplayStore, type RedisCommandClient, type RedisReplayStoreOptions } from "./store.js";
export { RedisBroadcaster, type RedisBroadcasterOptions, type RedisSubscriberClient } from "./broadcaster.js";

type NodeRedisClient = {
  sendCommand(args: string[]): Promise<unknown>;
  close?(): Promise<void>;
  quit?(): Promise<unknown>;
  duplicate(): { connect(): Promise<NodeRedisClient & RedisSubscriberClient> };
};
type NodeRedis = { createClient(options: { url?: string }): { connect(): Promise<NodeRedisClient> } };

async function closeClient(client: NodeRedisClient): Promise<void> {
  if (typeof client.close === "function") await client.close();
  else await client.quit?.();
}

// Loaded with the subpath, so a missing peer is reported at import, naming what to install.
const redis = await loadPeer<NodeRedis>("redis", "mcp-roundtrip/redis", "npm install redis");

/** What {@link connectRedisReplayStore} returns: the store, and how to close its connection. */
export interface ConnectedRedisReplayStore {
  /** Pass it as the `replay` option of `RequestStateSecurity`, so a sealed state is accepted once across every instance. */
  store: RedisReplayStore;
  /** Closes the Redis connection (call it from `serveHttp`'s `onShutdown`). */
  close(): Promise<void>;
}

/**
 * Connects to Redis with node-redis and returns a store on that connection.
 *
 * @param url - e.g. `redis://127.0.0.1:6379` (default: node-redis's own, localhost:6379).
 * @param options - key prefix and per-owner quota.
 * @throws whatever node-redis throws when it cannot connect.
 * @example
 * ```ts
 * const replay = await connectRedisReplayStore(process.env.REDIS_URL);
 * const security = RequestStateSecurity.fromEnv(undefined, { audience: "deployer", replay: replay.store });
 * await serveHttp(server, { handleSignals: true, onShutdown: replay.close });
 * ```
 */
export async function connectRedisReplayStore(url?: string, options: RedisReplayStoreOptions = {}): Promise<ConnectedRedisReplayStore> {
  const client = await redis.createClient(url === undefined ? {} : { url }).connect();
  return {
    store: new RedisReplayStore(client, options),
    close: () => closeClient(client),
  };
}

/** What {@link connectRedisBroadcaster} returns: the broadcaster, and how to close its two connections. */
export interface ConnectedRedisBroadcaster {
  /** Pass it as `subscriptions.broadcaster`, so a change on one instance reaches the streams of all. */
  broadcaster: RedisBroadcaster;
  /** Unsubscribes and closes both Redis connections (call it from `serveHttp`'s `onShutdown`). */
  close(): Promise<void>;
}

/**
 * Connects to Redis with node-redis (two connections: one publishes, one
 * listens) and returns a broadcaster subscribed to its channel.
 *
 * @param url - e.g. `redis://127.0.0.1:6379` (default: node-redis's own, localhost:6379).
 * @param options - the channel (default `"mcp:subscriptions"`, one per service sharing a Redis) and `onError`.
 * @throws whatever node-redis throws when it cannot connect.
 * @example
 * ```ts
 * const fleet = await connectRedisBroadcaster(process.env.REDIS_URL);
 * const mcp = new McpServer(info, { subscriptions: { broadcaster: fleet.broadcaster } });
 * await serveHttp(mcp, { handleSignals: true, onShutdown: fleet.close });
 * ```
 */
export async function connectRedisBroadcaster(
  url?: string,
  options: Omit<RedisBroadcasterOptions, "publisher" | "subscriber"> = {},
): Promise<ConnectedRedisBroadcaster> {
  const publisher = await redis.createClient(url === undefined ? {} : { url }).connect();
  let subscriber: (NodeRedisClient & RedisSubscriberClient) | undefined;
  try {
    subscriber = await publisher.duplicate().connect();
    const broadcaster = await RedisBroadcaster.create({ ...options, publisher, subscriber });
    const listening = subscriber;
    return {
      broadcaster,
      close: async () => {
        await broadcaster.close().catch(() => {});
        await Promise.allSettled([closeClient(listening), closeClient(publisher)]);
      },
    };
  } catch (error) {
    await Promise.allSettled([subscriber === undefined ? undefined : closeClient(subscriber), closeClient(publisher)]);
    throw error;
  }
}
