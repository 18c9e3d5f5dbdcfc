// What 10,000 abandoned exchanges cost a server: each gets its first round
// answered (an `input_required` result) and is never retried. A server that
// seals its state into `requestState` should hold nothing; a server that
// keeps per-exchange state in memory holds all of it until some expiry.
import { randomUUID } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { CONFIRM_SCHEMA, confirmedText, textOf } from "./fixtures.mjs";

/**
 * The stateful baseline: the same `confirm` tool, written the way a server
 * without sealing has to write it: the exchange lives in a Map and
 * `requestState` is only its key.
 */
export function statefulServer({ ttlSeconds = 600 } = {}) {
  const pending = new Map();
  return {
    pending,
    async handle(message) {
      const { id, params } = message;
      const exchangeId = params.requestState;
      if (typeof exchangeId === "string") {
        const exchange = pending.get(exchangeId);
        pending.delete(exchangeId);
        if (!exchange || exchange.expiresAt <= Date.now() / 1000) {
          return { jsonrpc: "2.0", id, error: { code: -32602, message: "Invalid or expired requestState" } };
        }
        const answer = params.inputResponses?.confirm;
        if (answer?.action !== "accept" || answer.content?.confirm !== true) {
          return { jsonrpc: "2.0", id, error: { code: -32602, message: "confirmation missing" } };
        }
        return {
          jsonrpc: "2.0",
          id,
          result: { resultType: "complete", content: [{ type: "text", text: confirmedText(exchange.state.text) }] },
        };
      }
      const key = randomUUID();
      const inputRequests = {
        confirm: {
          method: "elicitation/create",
          params: { mode: "form", message: `Confirm ${params.arguments.text}?`, requestedSchema: CONFIRM_SCHEMA },
        },
      };
      pending.set(key, {
        method: message.method,
        target: params.name,
        arguments: params.arguments,
        state: { text: params.arguments.text },
        inputRequests,
        expiresAt: Date.now() / 1000 + ttlSeconds,
      });
      return { jsonrpc: "2.0", id, result: { resultType: "input_required", inputRequests, requestState: key } };
    },
  };
}

/**
 * Measures the heap growth of `server` across `count` first rounds.
 * Runs `warmup` exchanges first so compiled code and inline caches are
 * already in the baseline, collects garbage twice before each reading, and
 * finally finishes the last exchange to prove the pending ones were real.
 * Uses `gc()` from `node --expose-gc`, or switches it on when missing.
 * @param {{ handle(message: unknown): Promise<any> }} server
 * @param {(i: number) => object} firstRound builds the i-th first-round request
 * @param {(response: any, i: number) => object} retry builds the retry for a first-round response
 * @param {{ count: number, warmup: number }} sizes
 * @returns {Promise<{ heapGrowthBytes: number, perExchangeBytes: number }>}
 * @throws {Error} when a round answers something unexpected.
 */
export async function measurePending(server, firstRound, retry, { count, warmup }) {
  const collect = garbageCollector();
  const run = async (from, to) => {
    let last;
    for (let i = from; i < to; i++) {
      const response = await server.handle(firstRound(i));
      if (response?.result?.resultType !== "input_required") {
        throw new Error(`first round ${i} did not answer input_required: ${JSON.stringify(response)}`);
      }
      last = response;
    }
    return last;
  };
  await run(0, warmup);
  const before = settledHeap(collect);
  const last = await run(warmup, warmup + count);
  const after = settledHeap(collect);
  const finished = await server.handle(retry(last, warmup + count - 1));
  const expected = confirmedText(`item-${warmup + count - 1}`);
  if (textOf(finished?.result) !== expected) {
    throw new Error(`finishing a pending exchange failed: ${JSON.stringify(finished)}`);
  }
  return { heapGrowthBytes: after - before, perExchangeBytes: (after - before) / count };
}

function settledHeap(collect) {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** `gc()`: the global one under --expose-gc, otherwise one from a fresh context after turning the flag on. */
function garbageCollector() {
  if (typeof globalThis.gc === "function") return globalThis.gc;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc");
}

/** The i-th first-round request for the `confirm` tool, with distinct arguments. */
export function confirmRequest(i, extra = {}) {
  return {
    jsonrpc: "2.0",
    id: i + 1,
    method: "tools/call",
    params: {
      name: "confirm",
      arguments: { text: `item-${i}` },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      },
      ...extra,
    },
  };
}

/** The retry of a first round: answers every input request with CONFIRM. */
export function confirmRetry(response, i) {
  const inputResponses = {};
  for (const key of Object.keys(response.result.inputRequests ?? {})) {
    inputResponses[key] = { action: "accept", content: { confirm: true } };
  }
  const request = confirmRequest(i, { inputResponses, requestState: response.result.requestState });
  request.id = `retry-${i}`;
  return request;
}

/** Heap growth of the stateful baseline. */
export async function statefulPending({ count, warmup }) {
  const server = statefulServer();
  return measurePending(server, (i) => confirmRequest(i), confirmRetry, { count, warmup });
}
