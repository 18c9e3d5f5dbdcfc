// What the drill counts: every exchange's start, latency and outcome, the
// retries by kind, the fault windows; and the figures derived from them
// (latency per phase, throughput and errors per second).

/** A fault as it ran: its kind and when it started and ended (ms since the run began). */
export interface FaultWindow {
  kind: string;
  start: number;
  end: number;
}

/** How one exchange ended. */
export type Outcome = "ok" | "wrong" | "lost";

/** The latency of one phase (calm, or one fault kind). */
export interface PhaseFigures {
  phase: string;
  exchanges: number;
  p50: number;
  p99: number;
}

/** One second of the run. */
export interface Second {
  t: number;
  completed: number;
  errors: number;
  p99: number;
}

/** Percentile `p` (0..1) of sorted `values` (0 when empty). */
function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The drill's counters. Times are milliseconds since `started`. */
export class Metrics {
  readonly started = Date.now();
  readonly faults: FaultWindow[] = [];
  readonly retries: Record<string, number> = {};
  readonly byKind: Record<string, number> = {};
  readonly problems: string[] = [];
  /** Observations worth printing (not failures). */
  readonly notes: string[] = [];
  readonly #starts: number[] = [];
  readonly #latencies: number[] = [];
  readonly #failedAt: number[] = [];
  exchanges = 0;
  wrong = 0;
  lost = 0;

  now(): number {
    return Date.now() - this.started;
  }

  /** Records one finished exchange. */
  record(kind: string, start: number, outcome: Outcome, detail?: string): void {
    this.exchanges++;
    this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
    if (outcome === "ok") {
      this.#starts.push(start);
      this.#latencies.push(this.now() - start);
      return;
    }
    if (outcome === "wrong") this.wrong++;
    else this.lost++;
    this.#failedAt.push(this.now());
    if (this.problems.length < 20) this.problems.push(`${outcome} ${kind} at ${(this.now() / 1000).toFixed(1)} s: ${detail ?? ""}`);
  }

  /** Counts one retry of kind `kind` (and marks it on the error line of the chart). */
  retried(kind: string): void {
    this.retries[kind] = (this.retries[kind] ?? 0) + 1;
    this.#failedAt.push(this.now());
  }

  /** Opens a fault window; the returned function closes it. */
  fault(kind: string): () => void {
    const window = { kind, start: this.now(), end: Number.POSITIVE_INFINITY };
    this.faults.push(window);
    return () => void (window.end = this.now());
  }

  /** True when a fault was active at `t`, or ended less than `graceMs` before it. */
  inFault(t: number, graceMs: number): boolean {
    return this.faults.some((window) => t >= window.start && t <= window.end + graceMs);
  }

  /** p50/p99 of the exchanges that met no fault, and of those that overlapped each kind of fault (one may count for several). */
  phases(): PhaseFigures[] {
    const groups = new Map<string, number[]>();
    for (let i = 0; i < this.#starts.length; i++) {
      const start = this.#starts[i]!;
      const end = start + this.#latencies[i]!;
      const active = this.faults.filter((window) => start <= window.end && end >= window.start);
      const names = active.length === 0 ? ["calm"] : [...new Set(active.map((window) => window.kind))];
      for (const name of names) {
        let group = groups.get(name);
        if (group === undefined) groups.set(name, (group = []));
        group.push(this.#latencies[i]!);
      }
    }
    return [...groups].map(([phase, values]) => {
      values.sort((a, b) => a - b);
      return { phase, exchanges: values.length, p50: percentile(values, 0.5), p99: percentile(values, 0.99) };
    });
  }

  /** Completions, errors (retries and failures) and p99 of each second of the run. */
  seconds(): Second[] {
    const end = Math.ceil(this.now() / 1000);
    const latencies: number[][] = Array.from({ length: end + 1 }, () => []);
    for (let i = 0; i < this.#starts.length; i++) latencies[Math.floor((this.#starts[i]! + this.#latencies[i]!) / 1000)]?.push(this.#latencies[i]!);
    const errors = new Array<number>(end + 1).fill(0);
    for (const t of this.#failedAt) errors[Math.floor(t / 1000)]! += 1;
    return latencies.map((values, t) => {
      values.sort((a, b) => a - b);
      return { t, completed: values.length, errors: errors[t] ?? 0, p99: percentile(values, 0.99) };
    });
  }
}
