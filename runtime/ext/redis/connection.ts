/**
 * The node-redis connections the `connect*` helpers open (or adopt from the
 * caller), set up so that a Redis outage never takes the process down: an
 * `error` listener on every client (node-redis emits `error` on a lost
 * socket, and an `error` event nobody listens to ends a Node process),
 * reconnection with capped, jittered backoff, a short command timeout and no
 * offline queue, so a command during an outage fails in milliseconds instead
 * of hanging a request, and a health flag `/healthz` can report.
 *
 * @module
 */
import { createLogger, type LevelledLogger, type Logger, type LogLevel } from "../../protocol/logging.js";
import { clusterAsClient, type CreateRedisCluster } from "./cluster.js";

/** The parts of a node-redis client (5 or 6) the helpers use. */
export interface NodeRedisClient {
  /** Sends one raw command (`["SET", key, value]`) and resolves with Redis's reply. */
  sendCommand(args: string[]): Promise<unknown>;
  /** Opens the connection; the helpers call it for a client that is not open yet. */
  connect?(): Promise<unknown>;
  /** node-redis 5: closes the connection; the helpers' `close()` calls it. */
  close?(): Promise<void>;
  /** node-redis 4: the older name of `close`, used when `close` is missing. */
  quit?(): Promise<unknown>;
  /** A second connection with the same options (a subscriber cannot send other commands). */
  duplicate(overrides?: Record<string, unknown>): NodeRedisClient;
  /** Adds an event listener; the helpers listen for `error` and `ready`. */
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  /** node-redis: true once connected and ready for commands, false while reconnecting. */
  readonly isReady?: boolean;
  /** node-redis: true between `connect()` and `close()`, reconnecting included. */
  readonly isOpen?: boolean;
}

/** What `createClient` of the `redis` package looks like to the helpers. */
export type CreateRedisClient = (options: Record<string, unknown>) => NodeRedisClient;

/**
 * How a `connect*` helper reaches Redis. Pass either `url` (and optionally
 * `clientOptions`, merged into node-redis's `createClient` options), or a
 * `client` of your own (connected or not); either way the helper adds its
 * `error` listener, so an outage is logged, never fatal.
 */
export interface RedisConnectionOptions {
  /** e.g. `redis://127.0.0.1:6379` (default: node-redis's own, localhost:6379). Ignored with `client`. */
  url?: string;
  /**
   * More `createClient` options (TLS, credentials, `socket`, …). Yours win over
   * the defaults below, except that the `error` listener is always added.
   */
  clientOptions?: Record<string, unknown>;
  /** A node-redis client you created; the helper connects it if it is not open yet. `close()` then closes it too. */
  client?: NodeRedisClient;
  /**
   * A Redis Cluster instead of one Redis: node-redis's `createCluster` options
   * (`{ rootNodes: [{ url: "redis://10.0.0.1:6379" }, …] }`; `defaults` for every
   * node). Commands go to the node of their key's slot, following MOVED and ASK;
   * a failover to a replica is waited out like an outage. Not with `url` or `client`.
   */
  cluster?: Record<string, unknown>;
  /**
   * How long one Redis command may take before it fails, in milliseconds
   * (default 500). During an outage a request then fails fast with a clear
   * error instead of waiting for the socket; the server turns that into
   * a refusal, never an acceptance.
   */
  commandTimeoutMs?: number;
  /** The longest wait between two reconnection attempts, in milliseconds (default 1,000; attempts back off from 50 ms). */
  maxReconnectDelayMs?: number;
  /** Where connection loss and recovery are logged (default `console`); the SDK's logger shape, pino works too. */
  logger?: Logger;
  /** The least severe line logged (default `"info"`: a loss is a `warn`, a recovery an `info`). */
  logLevel?: LogLevel;
}

/** One open connection, with its health. */
export interface RedisConnection {
  readonly client: NodeRedisClient;
  /** True while the client is connected and ready for commands. */
  healthy(): boolean;
  /** Closes the client; idempotent, never rejects for a client already gone. */
  close(): Promise<void>;
}

const DEFAULT_COMMAND_TIMEOUT_MS = 500;
const DEFAULT_MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * Reconnection delay for attempt `retries` (0, 1, …): doubling from 50 ms
 * up to `maxMs`, with up to 20% jitter so a fleet does not reconnect in step.
 */
export function reconnectDelay(retries: number, maxMs: number): number {
  const base = Math.min(maxMs, 50 * 2 ** Math.min(retries, 16));
  return Math.round(base * (0.8 + Math.random() * 0.2));
}

/** Checks the options a caller passed, naming what is wrong. */
export function checkConnectionOptions(options: RedisConnectionOptions, caller: string): void {
  if (typeof options !== "object" || options === null) throw new TypeError(`${caller}: expected a Redis URL string or { url?, client?, clientOptions?, … }`);
  if (options.url !== undefined && typeof options.url !== "string") throw new TypeError(`${caller}: "url" expected a string such as redis://127.0.0.1:6379`);
  if (options.client !== undefined && typeof options.client?.sendCommand !== "function") {
    throw new TypeError(`${caller}: "client" expected a node-redis client (createClient() from "redis")`);
  }
  if (options.cluster !== undefined && (typeof options.cluster !== "object" || options.cluster === null || !Array.isArray(options.cluster.rootNodes))) {
    throw new TypeError(`${caller}: "cluster" expected createCluster options with rootNodes, e.g. { rootNodes: [{ url: "redis://10.0.0.1:6379" }] }`);
  }
  if (options.cluster !== undefined && (options.url !== undefined || options.client !== undefined)) {
    throw new TypeError(`${caller}: pass either "cluster" or "url"/"client", not both (a cluster is reached through its rootNodes)`);
  }
  if (options.client !== undefined && (options.url !== undefined || options.clientOptions !== undefined)) {
    throw new TypeError(`${caller}: pass either "client" or "url"/"clientOptions", not both (a client of yours already has its address and options)`);
  }
  for (const key of ["commandTimeoutMs", "maxReconnectDelayMs"] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isFinite(value) || value <= 0))
      throw new RangeError(`${caller}: "${key}" expected a positive number of milliseconds, got ${String(value)}`);
  }
}

/**
 * Opens (or adopts) one connection for `role` (named in the log lines, e.g.
 * `"replay store"`), following {@link RedisConnectionOptions}.
 *
 * @throws whatever node-redis throws when the first connection fails (the process keeps running)
 */
export async function openRedisConnection(
  redis: { createClient: CreateRedisClient; createCluster?: CreateRedisCluster },
  options: RedisConnectionOptions,
  role: string,
): Promise<RedisConnection> {
  if (options.cluster !== undefined) {
    if (redis.createCluster === undefined) throw new TypeError(`Redis ${role}: this version of the redis package has no createCluster; npm install redis@6`);
    const { clientOptions: nodeOptions, cluster, commandTimeoutMs } = options;
    const defaults = clientOptionsFor({ ...options, url: undefined, clientOptions: { ...nodeOptions, ...(cluster.defaults as object | undefined) } });
    const { commandOptions: _perNode, ...nodeDefaults } = defaults;
    const created = redis.createCluster({
      // A master lost for good: look for its replica's promotion after 1 s of reconnecting, not node-redis's 5 s.
      topologyRefreshOnReconnectionAttemptStrategy: 1_000,
      ...cluster,
      defaults: nodeDefaults,
      commandOptions: { timeout: commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, ...(cluster.commandOptions as object | undefined) },
    });
    return adoptRedisConnection(clusterAsClient(created), options, role);
  }
  const client = options.client ?? redis.createClient(clientOptionsFor(options));
  return adoptRedisConnection(client, options, role);
}

/** Listens to `client` (its own or a duplicate), connects it when it is not open, and wraps it. */
export async function adoptRedisConnection(client: NodeRedisClient, options: RedisConnectionOptions, role: string): Promise<RedisConnection> {
  const log = createLogger(options.logger ?? console, options.logLevel ?? "info");
  watch(client, log, role);
  if (client.isOpen !== true && typeof client.connect === "function") {
    try {
      await client.connect();
    } catch (error) {
      await closeQuietly(client);
      throw error;
    }
  }
  let closed: Promise<void> | undefined;
  return {
    client,
    healthy: () => closed === undefined && client.isReady !== false,
    close: () => (closed ??= closeQuietly(client)),
  };
}

/** The `createClient` options: ours first, the caller's over them. */
export function clientOptionsFor(options: RedisConnectionOptions): Record<string, unknown> {
  const maxDelay = options.maxReconnectDelayMs ?? DEFAULT_MAX_RECONNECT_DELAY_MS;
  const own = options.clientOptions ?? {};
  const ownSocket = (own.socket ?? {}) as Record<string, unknown>;
  return {
    ...(options.url === undefined ? {} : { url: options.url }),
    // Commands during an outage fail at once rather than queue behind a socket that is not there.
    disableOfflineQueue: true,
    ...own,
    commandOptions: { timeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, ...(own.commandOptions as object | undefined) },
    socket: { reconnectStrategy: (retries: number) => reconnectDelay(retries, maxDelay), ...ownSocket },
  };
}

/** One line when the connection is lost, one when it is back: not one per failed reconnection attempt. */
function watch(client: NodeRedisClient, log: LevelledLogger, role: string): void {
  if (typeof client.on !== "function") return;
  let down = false;
  client.on("error", (error: unknown) => {
    if (down) return;
    down = true;
    log.warn(`Redis ${role}: connection lost; reconnecting, and refusing what needs Redis meanwhile`, { reason: messageOf(error) });
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    log.info(`Redis ${role}: connection back`);
  });
}

async function closeQuietly(client: NodeRedisClient): Promise<void> {
  try {
    if (typeof client.close === "function") await client.close();
    else await client.quit?.();
  } catch {
    // Already closed, or never connected: nothing left to release.
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
