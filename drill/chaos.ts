// The chaos client: runs `mrtr` exchanges by hand (raw JSON-RPC over nginx),
// keeps a sample of the requestState tokens it has spent, and sends them
// again, now and then, for the whole run (so some go again across a Redis
// restart, a key rotation, an instance restart). Every one must be refused:
// an answer with a result is a replay accepted. A "temporarily unavailable"
// answer (Redis down) accepts nothing; that token is tried again later.
import { answerTo } from "./answers.js";
import type { Random } from "./random.js";

const PROTOCOL = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "drill-chaos", version: "1.0.0" },
};

interface Spent {
  /** How many Redis restarts had begun when it was spent. */
  restarts: number;
  args: Record<string, unknown>;
  inputResponses: Record<string, unknown>;
  requestState: string;
}

/** What the chaos client counted. */
export interface ChaosFigures {
  spent: number;
  replays: number;
  refused: number;
  unavailable: number;
  accepted: number;
  /** Of the replays, those of a token spent before a Redis restart and sent again after it. */
  acrossRedisRestart: number;
  acceptedDetails: string[];
}

interface Answer {
  status: number;
  result?: { resultType?: string; requestState?: string; inputRequests?: Record<string, { params?: { message?: string } }> };
  error?: { code: number; data?: { reason?: string } };
}

async function post(url: string, id: number, params: Record<string, unknown>): Promise<Answer> {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "mrtr", ...params, _meta: META } });
  try {
    const response = await fetch(url, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(15_000),
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL,
        "mcp-method": "tools/call",
        "mcp-name": "mrtr",
      },
    });
    const text = await response.text();
    try {
      return { status: response.status, ...(JSON.parse(text) as object) };
    } catch {
      return { status: response.status };
    }
  } catch {
    return { status: 0 };
  }
}

/**
 * Runs the chaos client until `stopped()`: one hand-driven exchange, then a replay, every `pauseMs`.
 * `restarts()` says how many Redis restarts have begun so far.
 */
export async function runChaos(base: string, random: Random, stopped: () => boolean, restarts: () => number, pauseMs = 40): Promise<ChaosFigures> {
  const figures: ChaosFigures = { spent: 0, replays: 0, refused: 0, unavailable: 0, accepted: 0, acrossRedisRestart: 0, acceptedDetails: [] };
  const sample: Spent[] = [];
  const url = `${base}/mcp`;
  let id = 0;
  while (!stopped()) {
    // A two-round exchange; the first round's token is spent once the second round completes.
    const args = { id: `chaos-${id}`, plan: "e" };
    const first = await post(url, ++id, { arguments: args });
    const state = first.result?.requestState;
    const message = first.result?.inputRequests?.q0?.params?.message;
    if (state !== undefined && message !== undefined) {
      const inputResponses = { q0: { action: "accept", content: { value: answerTo(message) } } };
      const second = await post(url, ++id, { arguments: args, inputResponses, requestState: state });
      if (second.result?.resultType === "complete") {
        figures.spent++;
        const spent = { restarts: restarts(), args, inputResponses, requestState: state };
        if (sample.length < 500) sample.push(spent);
        else sample[random.int(0, sample.length - 1)] = spent;
      }
    }
    if (sample.length > 0) {
      const token = sample[random.int(0, sample.length - 1)]!;
      const again = await post(url, ++id, { arguments: token.args, inputResponses: token.inputResponses, requestState: token.requestState });
      figures.replays++;
      if (restarts() > token.restarts) figures.acrossRedisRestart++;
      if (again.result !== undefined) {
        figures.accepted++;
        if (figures.acceptedDetails.length < 5) figures.acceptedDetails.push(`${String(token.args.id)}: ${JSON.stringify(again.result).slice(0, 100)}`);
      } else if (again.error?.code === -32602) figures.refused++;
      else figures.unavailable++;
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return figures;
}
