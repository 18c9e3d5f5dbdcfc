/**
 * A node-redis Cluster client (`createCluster` from `redis`) in the shape the
 * `connect*` helpers use for a single Redis: each command is routed by its
 * first key (node-redis follows MOVED and ASK itself), keyless ones
 * (PUBLISH, which a cluster forwards to every node) go to any node; the
 * per-node `error` and `ready` events stand for the connection's.
 *
 * @module
 */
/** The parts of a node-redis Cluster client (5 or 6) the helpers use. */
export interface NodeRedisCluster {
  /** Sends one raw command to the node that holds `firstKey`'s slot (any node when it is undefined). */
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
  connect(): Promise<unknown>;
  close?(): Promise<void>;
  quit?(): Promise<unknown>;
  duplicate(overrides?: Record<string, unknown>): NodeRedisCluster;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  subscribe?(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe?(channel: string): Promise<unknown>;
  readonly isReady?: boolean;
  readonly isOpen?: boolean;
}

/** What `createCluster` of the `redis` package looks like to the helpers. */
export type CreateRedisCluster = (options: Record<string, unknown>) => NodeRedisCluster;

/** The key a raw command is routed by: EVAL/EVALSHA's first key, none for PUBLISH, else the first argument. */
function routingKeyOf(args: readonly string[]): string | undefined {
  const command = args[0]?.toUpperCase();
  if (command === "EVAL" || command === "EVALSHA") return Number(args[2]) > 0 ? args[3] : undefined;
  if (command === "PUBLISH" || command === "PING") return undefined;
  return args[1];
}

/** A cluster in the shape of one client (`NodeRedisClient` in connection.ts), plus `subscribe` for a broadcaster. */
export interface ClusterAsClient {
  sendCommand(args: string[]): Promise<unknown>;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  duplicate(overrides?: Record<string, unknown>): ClusterAsClient;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  readonly isReady: boolean | undefined;
  readonly isOpen: boolean | undefined;
}

/** `cluster` as one client (with `subscribe`/`unsubscribe` for a broadcaster's listening side). */
export function clusterAsClient(cluster: NodeRedisCluster): ClusterAsClient {
  return {
    sendCommand: (args) => cluster.sendCommand(routingKeyOf(args), false, args),
    connect: () => cluster.connect(),
    close: async () => void (await (cluster.close?.() ?? cluster.quit?.())),
    duplicate: (overrides) => clusterAsClient(cluster.duplicate(overrides)),
    on(event, listener) {
      // A node's loss and return are the connection's: one node down is a slot range refused.
      if (event === "error") cluster.on?.("node-error", listener);
      if (event === "ready") cluster.on?.("node-ready", listener);
      return cluster.on?.(event, listener);
    },
    subscribe: (channel, listener) => cluster.subscribe!(channel, listener),
    unsubscribe: (channel) => cluster.unsubscribe!(channel),
    get isReady() {
      return cluster.isReady;
    },
    get isOpen() {
      return cluster.isOpen;
    },
  };
}

/** A prefix whose keys all hash to one slot: it holds a non-empty `{hash tag}` (Redis Cluster spec, "Hash tags"). */
export function hasHashTag(prefix: string): boolean {
  return /\{[^}]+\}/.test(prefix);
}
