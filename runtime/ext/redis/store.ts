/**
 * A `ReplayStore` on Redis, shared by every instance of a fleet: a token
 * spent on one instance is refused by all, and a lease taken by an instance
 * that dies lapses on its own (Redis expires it).
 */
import { createHash } from "node:crypto";
import type { ReplayLease, ReplayQuotaExceeded, ReplayStore } from "../../state/policy/replay.js";
import { CLAIM, COMMIT, EPOCH, RELEASE } from "./scripts.js";

/**
 * The one method the store needs from a Redis client: send a raw command.
 * A node-redis client (`createClient()` from `redis` 5 or 6) has it; wrap
 * another client in an object with this method.
 */
export interface RedisCommandClient {
  /** Sends one raw command (`["SET", key, value, "NX", "PX", ttl]`) and resolves with Redis's reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options of {@link RedisReplayStore}. */
export interface RedisReplayStoreOptions {
  /** Prefix of every key the store writes (default `"mcp:replay:"`); one per service sharing a Redis. */
  prefix?: string;
  /**
   * The most live tokens one owner (one principal; all unauthenticated
   * callers together) may hold or have spent at once (default 10,000; `0`
   * for no limit), so one client cannot fill Redis.
   */
  maxEntriesPerOwner?: number;
}

const ANONYMOUS = "-";

interface Script {
  readonly source: string;
  readonly sha: string;
}

const script = (source: string): Script => ({ source, sha: createHash("sha1").update(source).digest("hex") });
const SCRIPTS = { claim: script(CLAIM), commit: script(COMMIT), release: script(RELEASE), epoch: script(EPOCH) };

/**
 * A {@link ReplayStore} on Redis: `claim`, `commit` and `release` are each
 * one Lua script, so they are atomic however many instances call them at
 * once. Expiry is relative (`PX`), timed by the Redis server's clock.
 *
 * Run Redis with `maxmemory-policy noeviction` (an evicted key is a token
 * that could be replayed). On a Redis Cluster give a `prefix` with a hash
 * tag (`"{mcp:replay}:"`): the scripts address the owner set and the epoch
 * from inside, so every key must share the token key's slot
 * (`connectRedisReplayStore` with `cluster` checks it). If Redis is unreachable, verification
 * fails closed: every round that carries state is refused, as retryable,
 * until it is back. If it comes back empty (restarted without
 * persistence), tokens issued before that are refused
 * (`replay_store_reset`): the store keeps an epoch key, `<prefix>epoch`, that
 * only an intact data set still holds.
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const security = RequestStateSecurity.fromEnv(undefined, { audience: "deployer", replay: new RedisReplayStore(redis) });
 * ```
 */
export class RedisReplayStore implements ReplayStore {
  readonly #client: RedisCommandClient;
  readonly #prefix: string;
  readonly #maxPerOwner: number;
  #since: number | undefined;
  /** The epoch marking under way, which a claim waits for (else its own marking could run first, with a later time). */
  #marking: Promise<void> | undefined;

  /**
   * @param client - a connected node-redis client, or anything with `sendCommand(args)`.
   * @param options - key prefix and per-owner quota.
   * @throws {TypeError} when `client` has no `sendCommand` or `prefix` is not a string.
   * @throws {RangeError} when `maxEntriesPerOwner` is not an integer ≥ 0.
   */
  constructor(client: RedisCommandClient, options: RedisReplayStoreOptions = {}) {
    if (typeof client?.sendCommand !== "function") {
      throw new TypeError('RedisReplayStore expected a connected Redis client with sendCommand(args), e.g. await createClient().connect() from "redis"');
    }
    const prefix = options.prefix ?? "mcp:replay:";
    if (typeof prefix !== "string") throw new TypeError(`RedisReplayStore: "prefix" expected a string, got ${typeof prefix}`);
    const max = options.maxEntriesPerOwner ?? 10_000;
    if (!Number.isSafeInteger(max) || max < 0) throw new RangeError(`RedisReplayStore: "maxEntriesPerOwner" expected an integer ≥ 0, got ${String(max)}`);
    this.#client = client;
    this.#prefix = prefix;
    this.#maxPerOwner = max;
    // Mark the epoch before this instance mints anything, so a fresh Redis does not refuse the first tokens.
    // Unreachable now? The first claim marks it instead (refusing what was minted before: fail closed).
    this.ready().catch(() => {});
  }

  /**
   * Reads the store's epoch, marking it first when this Redis has none (a
   * fresh or emptied one). Called on construction; `connectRedisReplayStore`
   * calls it again each time its connection is back. Call it after you
   * reconnect a client of your own.
   *
   * @throws whatever the client throws when Redis cannot be reached
   */
  ready(now: number = Date.now() / 1000): Promise<void> {
    const marking = this.#run(SCRIPTS.epoch, [this.#epochKey()], [String(now)]).then((epoch) => this.#learnEpoch(epoch));
    const settled = (this.#marking = marking.finally(() => {
      if (this.#marking === settled) this.#marking = undefined;
    }));
    return settled;
  }

  /** Since when this Redis holds every token (see {@link ReplayStore.rememberedSince}); as of the last claim. */
  rememberedSince(): number | undefined {
    return this.#since;
  }

  /** Takes a token for a lease (atomically); see {@link ReplayStore.claim}. Without `lease` the claim is final. */
  async claim(id: string, expiresAt: number, now: number, lease?: ReplayLease): Promise<boolean | ReplayQuotaExceeded> {
    const end = lease === undefined ? expiresAt : Math.min(lease.until, expiresAt);
    const owner = lease?.owner ?? ANONYMOUS;
    if (this.#marking !== undefined) await this.#marking.catch(() => {});
    const reply = await this.#run(
      SCRIPTS.claim,
      [this.#tokenKey(id), this.#ownerKey(owner), this.#epochKey()],
      [
        String(Math.floor(now * 1000)),
        String(Math.ceil((end - now) * 1000)),
        String(Math.ceil(end * 1000)),
        lease === undefined ? "used" : "lease",
        owner,
        id,
        String(this.#maxPerOwner),
        String(now),
      ],
    );
    if (!Array.isArray(reply)) throw new TypeError(`RedisReplayStore: the claim script answered ${typeof reply}, not [result, epoch]`);
    const [answer, epoch] = reply as unknown[];
    this.#learnEpoch(epoch);
    if (answer === -1) return "quota_exceeded";
    return answer === 1;
  }

  /** Marks a claimed token spent until `expiresAt` (atomically); see {@link ReplayStore.commit}. */
  async commit(id: string, expiresAt: number, now: number): Promise<void> {
    await this.#run(
      SCRIPTS.commit,
      [this.#tokenKey(id)],
      [String(Math.ceil((expiresAt - now) * 1000)), String(Math.ceil(expiresAt * 1000)), id, `${this.#prefix}o:`],
    );
  }

  /** Gives a leased token back; a spent one stays spent. See {@link ReplayStore.release}. */
  async release(id: string): Promise<void> {
    await this.#run(SCRIPTS.release, [this.#tokenKey(id)], [id, `${this.#prefix}o:`]);
  }

  #tokenKey(id: string): string {
    return `${this.#prefix}t:${id}`;
  }

  #epochKey(): string {
    return `${this.#prefix}epoch`;
  }

  #learnEpoch(value: unknown): void {
    const epoch = Number(value);
    // An unreadable epoch must not widen what is accepted: it stays unknown, and the next claim reads it again.
    if (!Number.isFinite(epoch)) throw new TypeError(`RedisReplayStore: ${this.#epochKey()} holds ${JSON.stringify(value)}, not a time in seconds`);
    this.#since = epoch;
  }

  #ownerKey(owner: string): string {
    return `${this.#prefix}o:${owner}`;
  }

  /** EVALSHA, loading the script on the first NOSCRIPT (a restarted or fresh Redis). */
  async #run(script: Script, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.#client.sendCommand(["EVALSHA", script.sha, ...tail]);
    } catch (error) {
      if (!String((error as Error)?.message ?? "").includes("NOSCRIPT")) throw error;
      return this.#client.sendCommand(["EVAL", script.source, ...tail]);
    }
  }
}
