/**
 * Remembers which tokens were already accepted, so each is accepted once.
 * The spec leaves single use to the server; this is the hook for it.
 *
 * Implement it over a shared store (Redis `SET id 1 NX EXAT expiresAt`, a
 * database unique key) when several instances serve one client; the
 * in-memory {@link MemoryReplayStore} suits a single process.
 *
 * A store that throws or rejects makes verification fail closed.
 */
export interface ReplayStore {
  /**
   * Records a token as used.
   *
   * @param id - a digest of the token (never the token itself).
   * @param expiresAt - when the token expires, in seconds since the epoch; the entry may be dropped after it.
   * @param now - the verifier's current time, in seconds since the epoch.
   * @returns `true` the first time `id` is claimed, `false` when it was claimed before and has not expired.
   */
  claim(id: string, expiresAt: number, now: number): boolean | Promise<boolean>;
}

/** Options for {@link MemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * The most tokens remembered at once (default 100,000). When the store is
   * full of unexpired tokens it refuses new ones (fails closed) rather than
   * forget one that could then be replayed.
   */
  maxEntries?: number;
}

/**
 * An in-process {@link ReplayStore}: a map from token digest to expiry,
 * swept of expired entries as it grows.
 *
 * @example
 * ```ts
 * const security = new RequestStateSecurity({ keys: [secret] }, { replay: new MemoryReplayStore() });
 * ```
 */
export class MemoryReplayStore implements ReplayStore {
  readonly #expiries = new Map<string, number>();
  readonly #maxEntries: number;
  #sweepAt = 1024;

  /** @throws {RangeError} when `maxEntries` is not a positive integer. */
  constructor(options: MemoryReplayStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`MemoryReplayStore: "maxEntries" expected a positive integer, got ${String(maxEntries)}`);
    }
    this.#maxEntries = maxEntries;
  }

  /** How many tokens are remembered right now (expired ones included until the next sweep). */
  get size(): number {
    return this.#expiries.size;
  }

  /**
   * Records a token as used; see {@link ReplayStore.claim}.
   *
   * @throws {RangeError} when `maxEntries` unexpired tokens are already remembered.
   */
  claim(id: string, expiresAt: number, now: number): boolean {
    const known = this.#expiries.get(id);
    if (known !== undefined && known > now) return false;
    if (known === undefined && this.#expiries.size >= Math.min(this.#sweepAt, this.#maxEntries)) {
      this.#sweep(now);
      if (this.#expiries.size >= this.#maxEntries) {
        throw new RangeError(
          `MemoryReplayStore is full (${this.#maxEntries} unexpired tokens); raise maxEntries or shorten ttl`,
        );
      }
      this.#sweepAt = Math.max(1024, this.#expiries.size * 2);
    }
    this.#expiries.set(id, expiresAt);
    return true;
  }

  #sweep(now: number): void {
    for (const [id, expiresAt] of this.#expiries) if (expiresAt <= now) this.#expiries.delete(id);
  }
}
