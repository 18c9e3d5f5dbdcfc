// A bounded load of three-round `provision` exchanges through nginx, as a
// plain JSON-RPC client over node:http: round k of exchange e goes to
// /via/<(e + k) mod n>/mcp, so every round lands on another instance than
// the one before. Nothing is retried unless the caller says a failure may
// be (the drill allows it for requests cut by a kill -9, and counts them).

import { request as httpRequest } from "node:http";

const PROTOCOL = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "fleet-load", version: "1.0.0" },
};

/** One round's failure. */
export interface RoundFailure {
  exchange: number;
  round: number;
  /** HTTP status (0 when the request itself failed). */
  status: number;
  /** The JSON-RPC error code, when the answer was one. */
  code?: number;
  /** The instance that answered or was tried last (nginx's $upstream_addr). */
  upstream: string;
  at: number;
  detail: string;
}

/** What a load run counted. */
export interface LoadFigures {
  exchanges: number;
  completed: number;
  failed: number;
  rounds: number;
  /** Rounds answered by another instance than the round before them. */
  movedRounds: number;
  /** Rounds sent again after a failure the caller allowed to retry. */
  retries: number;
  /** Of the exchanges that needed a retry, how many completed. */
  retriedCompleted: number;
  /** Failed answers by HTTP status (0: no answer), retried ones included: a 502 is a request a proxy could not deliver. */
  statuses: Record<number, number>;
  failures: RoundFailure[];
  elapsedMs: number;
}

/** How to run the load. */
export interface LoadOptions {
  /** nginx's base URL. */
  base: string;
  /** How many instances the /via/<n> locations cover. */
  instances: number;
  /** Exchanges in flight at once. */
  concurrency: number;
  /** Stop starting exchanges after this many (a bound, whatever happens). */
  maxExchanges: number;
  /** Stop starting exchanges after this long (a bound, whatever happens). */
  maxMs: number;
  /** May this failed round be sent again? Default: never. */
  mayRetry?: (failure: RoundFailure) => boolean;
  /** Wait before a retry, in milliseconds (a replay lease must lapse first). */
  retryDelayMs?: number;
}

interface RoundAnswer {
  ok: boolean;
  status: number;
  upstream: string;
  result?: { resultType?: string; requestState?: string; content?: { text?: string }[] };
  code?: number;
  detail: string;
}

/**
 * One POST on a fresh connection (no keep-alive from the client side: a proxy
 * that reloads closes its idle client connections, and a request racing that
 * close fails before it reaches any instance).
 */
function post(url: string, body: string): Promise<{ status: number; upstream: string; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        agent: false,
        timeout: 20_000,
        headers: {
          connection: "close",
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": PROTOCOL,
          "mcp-method": "tools/call",
          "mcp-name": "provision",
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          const header = response.headers["x-mcp-upstream"];
          resolve({
            status: response.statusCode ?? 0,
            upstream: String(header ?? "")
              .split(",")
              .at(-1)!
              .trim(),
            text,
          });
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timed out after 20 s")));
    request.on("error", reject);
    request.end(body);
  });
}

async function send(url: string, id: number, args: Record<string, unknown>, extra: Record<string, unknown>): Promise<RoundAnswer> {
  const body = { jsonrpc: "2.0", id, method: "tools/call", params: { name: "provision", arguments: args, ...extra, _meta: META } };
  let response: { status: number; upstream: string; text: string };
  try {
    response = await post(url, JSON.stringify(body));
  } catch (error) {
    return { ok: false, status: 0, upstream: "", detail: (error as Error).message };
  }
  const { status, upstream, text } = response;
  let message: { result?: RoundAnswer["result"]; error?: { code: number; message: string } } | undefined;
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    message = undefined;
  }
  // An error answer keeps its code whatever the status (a 503 "temporarily unavailable" carries one too).
  if (message?.error !== undefined) return { ok: false, status, upstream, code: message.error.code, detail: message.error.message };
  if (status !== 200 || message === undefined) return { ok: false, status, upstream, detail: text.slice(0, 120) };
  return { ok: true, status: 200, upstream, result: message.result, detail: "" };
}

/** Runs one exchange of three rounds; resolves whether it completed. */
async function exchange(options: LoadOptions, index: number, figures: LoadFigures): Promise<void> {
  const args = { app: `app-${index}` };
  const answers = [{}, { region: { action: "accept", content: { region: "eu-west-1" } } }, { confirm: { action: "accept", content: { yes: true } } }];
  let requestState: string | undefined;
  let previous = "";
  let retried = false;
  for (let round = 0; round < 3; round++) {
    const url = `${options.base}/via/${(index + round) % options.instances}/mcp`;
    const extra = round === 0 ? {} : { inputResponses: answers[round], requestState };
    let answer = await send(url, index * 10 + round, args, extra);
    while (!answer.ok) {
      figures.statuses[answer.status] = (figures.statuses[answer.status] ?? 0) + 1;
      const failure: RoundFailure = { exchange: index, round: round + 1, status: answer.status, upstream: answer.upstream, at: Date.now(), detail: answer.detail };
      if (answer.code !== undefined) failure.code = answer.code;
      if (!(options.mayRetry?.(failure) ?? false) || figures.retries > 1_000) {
        figures.failed++;
        figures.failures.push(failure);
        return;
      }
      retried = true;
      figures.retries++;
      await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs ?? 0));
      answer = await send(url, index * 10 + round, args, extra);
    }
    figures.rounds++;
    if (round > 0 && answer.upstream !== previous) figures.movedRounds++;
    previous = answer.upstream;
    const result = answer.result!;
    if (round < 2) {
      if (result.resultType !== "input_required" || typeof result.requestState !== "string") {
        figures.failed++;
        figures.failures.push({
          exchange: index,
          round: round + 1,
          status: 200,
          upstream: answer.upstream,
          at: Date.now(),
          detail: `expected input_required, got ${JSON.stringify(result).slice(0, 80)}`,
        });
        return;
      }
      requestState = result.requestState;
    } else if (!String(result.content?.[0]?.text).startsWith(`provisioned app-${index} in eu-west-1`)) {
      figures.failed++;
      figures.failures.push({
        exchange: index,
        round: 3,
        status: 200,
        upstream: answer.upstream,
        at: Date.now(),
        detail: `unexpected result ${JSON.stringify(result).slice(0, 80)}`,
      });
      return;
    }
  }
  figures.completed++;
  if (retried) figures.retriedCompleted++;
}

/** A running load: `stop()` lets the exchanges in flight finish and resolves the figures. */
export interface RunningLoad {
  readonly figures: LoadFigures;
  stop(): Promise<LoadFigures>;
}

/** Starts the load; it runs until `stop()` or one of its bounds. */
export function startLoad(options: LoadOptions): RunningLoad {
  const figures: LoadFigures = {
    exchanges: 0,
    completed: 0,
    failed: 0,
    rounds: 0,
    movedRounds: 0,
    retries: 0,
    retriedCompleted: 0,
    statuses: {},
    failures: [],
    elapsedMs: 0,
  };
  const started = Date.now();
  let stopping = false;
  const worker = async () => {
    while (!stopping && figures.exchanges < options.maxExchanges && Date.now() - started < options.maxMs) {
      const index = figures.exchanges++;
      await exchange(options, index, figures);
    }
  };
  const workers = Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    figures,
    async stop() {
      stopping = true;
      await workers;
      figures.elapsedMs = Date.now() - started;
      return figures;
    },
  };
}
