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
  /** Writes an SSE comment line. */
  keepAlive(): void;
}

/**
 * Takes `stream` out of the list it is in, if any. The list's head is a
 * node of its own, so a stream leaves knowing only its neighbours: it need
 * not keep a reference to its list for as long as it is open.
 * @internal
 */
export function leaveKeepAlive(stream: KeptAlive): void {
  const { alivePrev: prev, aliveNext: next } = stream;
  if (prev === undefined) return; // not in a list
  prev.aliveNext = next;
  if (next !== undefined) next.alivePrev = prev;
  stream.alivePrev = undefined;
  stream.aliveNext = undefined;
}

/**
 * The listen streams of one endpoint, each given an SSE comment line every
 * `sseKeepAliveMs` by one timer for them all (a timer per stream cost every
 * idle stream a timer, a closure and its scope), running only while a
 * stream is open: it stops at its first tick that finds none.
 */
export class KeepAlives {
  /** The head of the list; the streams are linked through themselves: no table entry per stream. */
  readonly #head: KeptAlive = { alivePrev: undefined, aliveNext: undefined, keepAlive() {} };
  readonly #everyMs: number;
  readonly #onError: (error: unknown) => void;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(everyMs: number, onError: (error: unknown) => void) {
    this.#everyMs = everyMs;
    this.#onError = onError;
  }

  /** Adds an open stream; it leaves with {@link leaveKeepAlive} when it ends. */
  add(stream: KeptAlive): void {
    const head = this.#head;
    const first = head.aliveNext;
    stream.alivePrev = head;
    stream.aliveNext = first;
    if (first !== undefined) first.alivePrev = stream;
    head.aliveNext = stream;
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#tick(), this.#everyMs);
    (this.#timer as { unref?: () => void }).unref?.(); // never what keeps a process alive
  }

  #tick(): void {
    if (this.#head.aliveNext === undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    for (let stream: KeptAlive | undefined = this.#head.aliveNext; stream !== undefined; ) {
      const next: KeptAlive | undefined = stream.aliveNext; // read first: a stream that ends meanwhile leaves the list
      try {
        stream.keepAlive();
      } catch (error) {
        this.#onError(error);
      }
      stream = next;
    }
  }
}

const keepAlives = new WeakMap<ResolvedHttpOptions, KeepAlives>();

/** The keep-alive list of the endpoint `options` belong to. @internal */
export function keepAlivesOf(options: ResolvedHttpOptions): KeepAlives {
  let found = keepAlives.get(options);
  if (found === undefined) {
    found = new KeepAlives(options.sseKeepAliveMs, options.onError);
    keepAlives.set(options, found);
  }
  return found;
}
