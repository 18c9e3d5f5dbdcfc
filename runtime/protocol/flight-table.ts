/**
 * A table of what a long-lived owner (a session, a server) holds per request
 * while the request is in flight, keyed by the request's JSON-RPC id: an
 * entry added and removed per call, for as long as the owner lives.
 *
 * @module
 */
import type { JsonRpcId } from "./jsonrpc/messages.js";

/** Slots of a new table's integer half: a power of two, enough for a client's usual concurrency. */
const FIRST_CAPACITY = 16;

/**
 * Entries by request id. Ids 1 and "1" are different requests, so integer
 * and string ids live in separate halves.
 *
 * Why not a `Map`: when a `Map` grows, shrinks or is rehashed after deletes,
 * V8 gives it a new hash table and links the old one to the new (for live
 * iterators). Once the owner has lived long enough for its table to sit in
 * the old generation, that dead old table keeps the new one, and every entry
 * it held, alive through each scavenge, and the new table in turn its
 * successor: per call, everything a request's entry reaches (its context,
 * its HTTP request and response, the question's event) was promoted and left
 * for the old-generation collector, ~5 KB per call of a 2025 session call
 * with one elicitation over HTTP.
 *
 * Why not a null-prototype object keyed by a string built from the id (what
 * this was): every lookup of a fresh key string hashes and interns it, ~10×
 * the cost of a `Map` operation. Integer ids, what clients send, live in an
 * open-addressing table over two plain arrays instead: a slot is the id's
 * low bits, replaced arrays link to nothing, and a delete shifts the probe
 * run back rather than leaving a tombstone, so the arrays only grow with the
 * number of requests in flight at once, never with the number answered.
 * String ids use a null-prototype dictionary keyed by the id itself.
 * @internal
 */
export class FlightTable<V> {
  #keys = emptySlots<number>(FIRST_CAPACITY);
  #values = emptySlots<V>(FIRST_CAPACITY);
  #integers = 0;
  #strings: Record<string, V> | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Slots of the integer half: grows with the most entries held at once, never with the ids seen. */
  get capacity(): number {
    return this.#keys.length;
  }

  get(id: JsonRpcId): V | undefined {
    if (typeof id === "string") return this.#strings?.[id];
    const slot = this.#slotOf(id);
    return slot < 0 ? undefined : this.#values[slot];
  }

  has(id: JsonRpcId): boolean {
    return this.get(id) !== undefined;
  }

  /** Adds or replaces the entry of `id`; `value` is never `undefined`. */
  set(id: JsonRpcId, value: V): void {
    if (typeof id === "string") {
      const strings = (this.#strings ??= Object.create(null) as Record<string, V>);
      if (strings[id] === undefined) this.#size++;
      strings[id] = value;
      return;
    }
    const keys = this.#keys;
    const mask = keys.length - 1;
    let slot = hashOf(id) & mask;
    for (;;) {
      const key = keys[slot];
      if (key === undefined) break;
      if (key === id) {
        this.#values[slot] = value;
        return;
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = id;
    this.#values[slot] = value;
    this.#integers++;
    this.#size++;
    // Half full at most, so a probe run stays short.
    if (this.#integers * 2 > keys.length) this.#resize(keys.length * 2);
  }

  /** Removes the entry of `id`; true when there was one. */
  delete(id: JsonRpcId): boolean {
    if (typeof id === "string") {
      const strings = this.#strings;
      if (strings?.[id] === undefined) return false;
      delete strings[id];
      this.#size--;
      return true;
    }
    let slot = this.#slotOf(id);
    if (slot < 0) return false;
    const keys = this.#keys;
    const values = this.#values;
    const mask = keys.length - 1;
    // Backward-shift deletion: each later entry of the probe run that may fill the hole moves into it.
    let next = (slot + 1) & mask;
    for (;;) {
      const key = keys[next];
      if (key === undefined) break;
      const home = hashOf(key) & mask;
      // The entry at `next` may move to `slot` unless its home lies cyclically in (slot, next].
      if ((next > slot && (home <= slot || home > next)) || (next < slot && home <= slot && home > next)) {
        keys[slot] = key;
        values[slot] = values[next];
        slot = next;
      }
      next = (next + 1) & mask;
    }
    keys[slot] = undefined;
    values[slot] = undefined;
    this.#integers--;
    this.#size--;
    return true;
  }

  /** The entries' values now, in no particular order: a copy, so a caller may change the table while it goes through them. */
  values(): V[] {
    const values: V[] = [];
    for (const value of this.#values) if (value !== undefined) values.push(value);
    const strings = this.#strings;
    if (strings !== undefined) for (const id in strings) values.push(strings[id]!);
    return values;
  }

  clear(): void {
    this.#keys = emptySlots(FIRST_CAPACITY);
    this.#values = emptySlots(FIRST_CAPACITY);
    this.#integers = 0;
    this.#strings = undefined;
    this.#size = 0;
  }

  /** The slot holding integer id `id`, or -1. */
  #slotOf(id: number): number {
    const keys = this.#keys;
    const mask = keys.length - 1;
    let slot = hashOf(id) & mask;
    for (;;) {
      const key = keys[slot];
      if (key === undefined) return -1;
      if (key === id) return slot;
      slot = (slot + 1) & mask;
    }
  }

  #resize(capacity: number): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = emptySlots(capacity);
    this.#values = emptySlots(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === undefined) continue;
      let slot = hashOf(key) & mask;
      while (this.#keys[slot] !== undefined) slot = (slot + 1) & mask;
      this.#keys[slot] = key;
      this.#values[slot] = values[i];
    }
  }
}

/** `capacity` empty slots, filled rather than holey so that every read finds a slot. */
function emptySlots<T>(capacity: number): (T | undefined)[] {
  return new Array<T | undefined>(capacity).fill(undefined);
}

/**
 * A slot hash for a safe-integer id: its low 32 bits mixed with its high
 * ones. Clients count ids up from 0 or 1, so consecutive ids take
 * consecutive slots; the mix keeps ids that differ only above bit 32 apart.
 */
function hashOf(id: number): number {
  return (id ^ (id / 4294967296)) >>> 0;
}
