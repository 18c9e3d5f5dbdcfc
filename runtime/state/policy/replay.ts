/**
 * Remembers which tokens were already used, so each is used once. The spec
 * leaves single use to the server; this is the hook for it.
 *
 * A token is first *claimed* for a short lease, while the request that
 * presented it runs. The request then *commits* it once it produced a result
 * (complete or `input_required`): from then on the token is spent until it
 * expires. When the handler fails before producing one (a transient error,
 * a crash), the request *releases* it, and a retry with the same token is
 * accepted. A lease nobody commits or releases (the instance died) lapses
 * on its own.
 *
 * What a store must guarantee, whatever it is built on:
 * - `claim` is an atomic test-and-set: of any number of concurrent claims of
 *   one id, at most one returns `true` while a lease or a commit for it is live.
 * - `commit` turns the caller's lease into a use that lasts until `expiresAt`,
 *   even if the lease already lapsed (the request did produce its result).
 * - `release` drops a lease and never a commit.
 * - Entries may be forgotten once past their lease end (leased) or
 *   `expiresAt` (committed), never before.
 *
 * Over Redis: `SET id lease NX PXAT leaseUntil` to claim, `SET id used PXAT
 * expiresAt` to commit, and a compare-and-delete script to release. A store
 * that throws or rejects makes verification fail closed.
 */
export interface ReplayStore {
  /**
   * Takes a token for a lease.
   *
   * @param id - a digest of the token (never the token itself).
   * @param expiresAt - when the token expires, in seconds since the epoch.
   * @param now - the verifier's current time, in seconds since the epoch.
   * @param lease - when the lease ends, and a digest of who presents the token (for per-owner quotas; absent when unauthenticated).
   * @returns `true` when the token is now held by this request; `false` when it is
   *   held or spent; `"quota_exceeded"` when this owner holds as many tokens as it may.
   *   A store written before leases existed ignores `lease` and treats every claim as a commit.
   */
  claim(id: string, expiresAt: number, now: number, lease?: ReplayLease): boolean | ReplayQuotaExceeded | Promise<boolean | ReplayQuotaExceeded>;
  /** Marks a claimed token spent until `expiresAt`. Optional: without it a claim is final. */
  commit?(id: string, expiresAt: number, now: number): void | Promise<void>;
  /** Gives a claimed token back, so a retry may present it again. Optional: without it a claim is final. */
  release?(id: string, now: number): void | Promise<void>;
  /**
   * Since when this store remembers every token it was asked about, in
   * seconds since the epoch: the start of its memory (the process start of
   * an in-memory store; for Redis, the moment a fleet first saw the current
   * data set). A token issued before it may have been spent and then
   * forgotten (a Redis restarted without persistence), so it is refused
   * (`replay_store_reset`), whatever the store says about it. Read after
   * each successful `claim`. Optional: without it a store is trusted to
   * never forget.
   */
  rememberedSince?(): number | undefined;
}

/** The answer of a store that refuses an owner over its quota. */
export type ReplayQuotaExceeded = "quota_exceeded";

/** The lease a claim asks for. */
export interface ReplayLease {
  /** When the lease lapses unless committed, in seconds since the epoch. */
  until: number;
  /** A digest naming who presented the token; `undefined` for unauthenticated callers. */
  owner?: string | undefined;
}

/** Options for {@link MemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Since when this store holds every token it was asked about, in seconds
   * since the epoch (default: when it was constructed, by `Date.now()`).
   * Tokens issued before it are refused: after a process restart the memory
   * of what was spent is gone. Tests with a fake verifier clock pass that
   * clock's start (or `0`).
   */
  rememberedSince?: number;
  /**
   * The most tokens remembered at once (default 100,000). When the store is
   * full of live tokens it refuses new ones (fails closed) rather than
   * forget one that could then be replayed.
   */
  maxEntries?: number;
  /**
   * The most live tokens one owner (one principal; all unauthenticated
   * callers together) may hold (default 10,000), so one client cannot fill
   * the store and lock everyone else out.
   */
  maxEntriesPerOwner?: number;
}

interface Entry {
  /** When the entry may be forgotten: the lease end while leased, the token's expiry once committed. */
  until: number;
  committed: boolean;
  owner: string;
}

/** Width of one expiry bucket, in seconds. */
const BUCKET_SECONDS = 1;
/** Most expired entries dropped by one claim, so a wave of expiries never blocks the event loop at once. */
const SWEEP_BUDGET = 1_024;
const ANONYMOUS = "";

/**
 * An in-process {@link ReplayStore}. Expired entries are dropped in
 * one-second buckets as the clock passes them, at most about a thousand per
 * claim, so no claim ever scans the whole store or stalls on a wave of
 * expiries.
 *
 * @example
 * ```ts
 * const security = new RequestStateSecurity({ keys: [secret] }, { replay: new MemoryReplayStore() });
 * ```
 */
export class MemoryReplayStore implements ReplayStore {
  readonly #entries = new Map<string, Entry>();
  readonly #buckets = new Map<number, string[]>();
  readonly #perOwner = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #maxPerOwner: number;
  /** Buckets at or below this key have been moved to `#due`. */
  #swept = -Infinity;
  /** Ids whose bucket came due, still to be checked and dropped, a budget at a time. */
  #due: string[] = [];
  #dueAt = 0;

  /** @throws {RangeError} when a bound is not a positive integer. */
  constructor(options: MemoryReplayStoreOptions = {}) {
    this.#maxEntries = positive("maxEntries", options.maxEntries ?? 100_000);
    this.#maxPerOwner = positive("maxEntriesPerOwner", options.maxEntriesPerOwner ?? 10_000);
    const since = options.rememberedSince ?? Date.now() / 1000;
    if (typeof since !== "number" || !Number.isFinite(since))
      throw new RangeError(`MemoryReplayStore: "rememberedSince" expected seconds since the epoch, got ${String(since)}`);
    this.#since = since;
  }

  readonly #since: number;

  /**
   * When this store's memory began (its construction, unless `rememberedSince`
   * says otherwise): tokens issued earlier, e.g. before a process restart,
   * are refused, since this memory cannot know whether they were spent.
   */
  rememberedSince(): number {
    return this.#since;
  }

  /** How many tokens are held or spent right now (entries past their time included until swept). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Takes a token for a lease; see {@link ReplayStore.claim}. Without a
   * `lease` the claim is a commit at once (the single-step form).
   *
   * @throws {RangeError} when `maxEntries` live tokens are already remembered.
   */
  claim(id: string, expiresAt: number, now: number, lease?: ReplayLease): boolean | ReplayQuotaExceeded {
    this.#sweep(now, SWEEP_BUDGET);
    const known = this.#entries.get(id);
    if (known !== undefined && known.until > now) return false;
    if (known !== undefined) this.#forget(id, known);
    const owner = lease?.owner ?? ANONYMOUS;
    if (this.#entries.size >= this.#maxEntries) this.#sweep(now, Number.POSITIVE_INFINITY);
    if (this.#entries.size >= this.#maxEntries) {
      throw new RangeError(`MemoryReplayStore is full (${this.#maxEntries} live tokens); raise maxEntries or shorten ttl`);
    }
    if ((this.#perOwner.get(owner) ?? 0) >= this.#maxPerOwner) return "quota_exceeded";
    const entry: Entry = lease === undefined ? { until: expiresAt, committed: true, owner } : { until: Math.min(lease.until, expiresAt), committed: false, owner };
    this.#entries.set(id, entry);
    this.#perOwner.set(owner, (this.#perOwner.get(owner) ?? 0) + 1);
    this.#schedule(id, entry.until);
    return true;
  }

  /** Marks a claimed token spent until `expiresAt`; see {@link ReplayStore.commit}. */
  commit(id: string, expiresAt: number, now: number): void {
    let entry = this.#entries.get(id);
    if (entry === undefined) {
      // The lease lapsed and was swept, yet the request did produce its result: the token is spent.
      if (expiresAt <= now) return;
      entry = { until: expiresAt, committed: true, owner: ANONYMOUS };
      this.#entries.set(id, entry);
      this.#perOwner.set(ANONYMOUS, (this.#perOwner.get(ANONYMOUS) ?? 0) + 1);
    } else {
      entry.committed = true;
      entry.until = expiresAt;
    }
    this.#schedule(id, expiresAt);
  }

  /** Gives a leased token back; a committed one stays spent. See {@link ReplayStore.release}. */
  release(id: string): void {
    const entry = this.#entries.get(id);
    if (entry !== undefined && !entry.committed) this.#forget(id, entry);
  }

  #schedule(id: string, until: number): void {
    const key = Math.ceil(until / BUCKET_SECONDS);
    const bucket = this.#buckets.get(key);
    if (bucket === undefined) this.#buckets.set(key, [id]);
    else bucket.push(id);
  }

  /**
   * Moves the buckets the clock has passed onto the due list (each bucket
   * once), then drops up to `budget` of the due entries: a wave of expiries
   * is spread over the claims that follow instead of blocking one of them.
   */
  #sweep(now: number, budget: number): void {
    const through = Math.floor(now / BUCKET_SECONDS);
    if (through > this.#swept) {
      for (const [key, ids] of this.#buckets) {
        if (key > through) continue;
        this.#buckets.delete(key);
        if (this.#dueAt === this.#due.length) {
          this.#due = ids;
          this.#dueAt = 0;
        } else {
          for (const id of ids) this.#due.push(id);
        }
      }
      this.#swept = through;
    }
    const due = this.#due;
    let at = this.#dueAt;
    const end = Math.min(due.length, at + budget);
    for (; at < end; at++) {
      const id = due[at]!;
      const entry = this.#entries.get(id);
      // An entry rescheduled (a lease committed) lives on in a later bucket.
      if (entry !== undefined && entry.until <= now) this.#forget(id, entry);
    }
    this.#dueAt = at;
    if (at === due.length && at > 0) {
      this.#due = [];
      this.#dueAt = 0;
    }
  }

  #forget(id: string, entry: Entry): void {
    this.#entries.delete(id);
    const count = (this.#perOwner.get(entry.owner) ?? 1) - 1;
    if (count <= 0) this.#perOwner.delete(entry.owner);
    else this.#perOwner.set(entry.owner, count);
  }
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`MemoryReplayStore: "${name}" expected a positive integer, got ${String(value)}`);
  }
  return value;
}
