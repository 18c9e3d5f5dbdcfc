// The drill's simulated users: each draws exchanges from the seeded mix,
// runs them through its SDK clients, thinks a little, and goes again until
// the run has its count. An exchange that fails while a fault is active (or
// just after) is started again, counted by the kind of error; one that
// fails in calm time, or ten times, is lost. A wrong result is
// never retried.
import { connectUser, MIX, runExchange, WrongAnswer, type UserClients } from "./exchanges.js";
import type { Metrics } from "./metrics.js";
import { Random } from "./random.js";

/** How the workload runs. */
export interface WorkloadOptions {
  base: string;
  users: number;
  exchanges: number;
  seed: number;
  /** The longest think time between two exchanges of one user (uniform from 0). */
  thinkMs: number;
  /** After a fault ends, failures still count as caused by it for this long. */
  faultGraceMs: number;
}

/** Tries of one exchange at most (about 8 s of backoff): a fault outlasts a few, a bug fails them all. */
const ATTEMPTS = 10;

/** The name a retry is counted under: the error's class and code or status. */
function errorKind(error: unknown): string {
  const value = error as { name?: string; code?: unknown; status?: unknown; message?: string; cause?: { code?: string } };
  const detail = value?.code ?? value?.status ?? value?.cause?.code;
  return `${value?.name ?? typeof error}${detail === undefined ? "" : ` ${String(detail)}`}`;
}

/** Runs the workload; resolves when `exchanges` have ended (or `stopped()` says so). */
export async function runWorkload(options: WorkloadOptions, metrics: Metrics, countStatus: (status: number) => void, stopped: () => boolean): Promise<void> {
  let next = 0;
  const user = async (index: number) => {
    const random = new Random(options.seed * 1000 + index);
    let clients: UserClients | undefined;
    try {
      while (!stopped() && next < options.exchanges) {
        const id = `x${next++}`;
        const kind = random.pick(MIX);
        const start = metrics.now();
        let outcome: "ok" | "wrong" | "lost" = "lost";
        let detail = "";
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          try {
            clients ??= await connectUser(options.base, index % 3, countStatus);
            await runExchange(kind, id, clients, random);
            outcome = "ok";
            break;
          } catch (error) {
            if (error instanceof WrongAnswer) {
              outcome = "wrong";
              detail = error.message;
              break;
            }
            detail = `${errorKind(error)}: ${(error as Error)?.message ?? String(error)}`;
            if (!metrics.inFault(metrics.now(), options.faultGraceMs) || attempt === ATTEMPTS - 1) break;
            metrics.retried(`${kind}: ${errorKind(error)}`);
            // A client whose session or connection broke starts afresh.
            if (kind === "session2025" || kind === "task") {
              await clients?.close();
              clients = undefined;
            }
            await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 200 * (attempt + 1))));
          }
        }
        metrics.record(kind, start, outcome, detail);
        if (options.thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, random.int(0, options.thinkMs)));
      }
    } finally {
      await clients?.close();
    }
  };
  await Promise.all(Array.from({ length: options.users }, (_unused, index) => user(index)));
}
