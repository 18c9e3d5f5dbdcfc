/**
 * `mcp-roundtrip/redis`: a one-time-token store on Redis for a fleet
 * ({@link RedisReplayStore}), and {@link connectRedisReplayStore}, which
 * opens the node-redis client for it. Needs the optional peer dependency
 * `redis` (node-redis 5 or 6): `npm install redis`.
 *
 * @packageDocumentation
 */
import { loadPeer } from "../peer.js";
import { RedisReplayStore, type RedisReplayStoreOptions } from "./store.js";

export { RedisReplayStore, type RedisCommandClient, type RedisReplayStoreOptions } from "./store.js";

type NodeRedis = { createClient(options: { url?: string }): { connect(): Promise<{ sendCommand(args: string[]): Promise<unknown>; close?(): Promise<void>; quit?(): Promise<unknown> }> } };

// Loaded with the subpath, so a missing peer is reported at import, naming what to install.
const redis = await loadPeer<NodeRedis>("redis", "mcp-roundtrip/redis", "npm install redis");

/** What {@link connectRedisReplayStore} returns: the store, and how to close its connection. */
export interface ConnectedRedisReplayStore {
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
    close: async () => {
      if (typeof client.close === "function") await client.close();
      else await client.quit?.();
    },
  };
}
