/**
 * SSE keep-alive of the listen streams of one endpoint: a comment line now
 * and then, which no client treats as a message, so proxies see traffic on
 * a stream that may stay silent for hours.
 *
 * @internal
 * @module
 */
import type { ResolvedHttpOptions } from "./policy.js";

/** A stream that can be kept alive, linked into its endpoint's list. @internal */
export interface KeptAlive {
  alivePrev: KeptAlive | undefined;
  aliveNext: KeptAlive | undefined;
  /** Writes an SSE comment line if the stream is still open. */
  keepAlive(): void;
}

/**
 * The listen streams of one endpoint, each given an SSE comment line every
 * `sseKeepAliveMs` by one timer for them all (a timer per stream cost every
 * idle stream a timer, a closure and its scope), running only while a
 * stream is open.
 */
export class KeepAlives {
  /** The streams, linked through their contexts: no table entry per stream. */
  #first: KeptAlive | undefined;
  #count = 0;
  readonly #everyMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(everyMs: number) {
    this.#everyMs = everyMs;
  }

  add(context: KeptAlive): void {
    const first = this.#first;
    context.aliveNext = first;
    if (first !== undefined) first.alivePrev = context;
    this.#first = context;
    this.#count++;
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      for (let stream = this.#first; stream !== undefined; ) {
        const next = stream.aliveNext; // read first: a stream that ends meanwhile leaves the list
        stream.keepAlive();
        stream = next;
      }
    }, this.#everyMs);
    (this.#timer as { unref?: () => void }).unref?.(); // never what keeps a process alive
  }

  delete(context: KeptAlive): void {
    const { alivePrev: prev, aliveNext: next } = context;
    if (prev !== undefined) prev.aliveNext = next;
    else if (this.#first === context) this.#first = next;
    else return; // not in the list
    if (next !== undefined) next.alivePrev = prev;
    context.alivePrev = undefined;
    context.aliveNext = undefined;
    if (--this.#count > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

const keepAlives = new WeakMap<ResolvedHttpOptions, KeepAlives>();

export function keepAlivesOf(options: ResolvedHttpOptions): KeepAlives {
  let found = keepAlives.get(options);
  if (found === undefined) {
    found = new KeepAlives(options.sseKeepAliveMs);
    keepAlives.set(options, found);
  }
  return found;
}
