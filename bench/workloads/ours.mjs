// The mcp-roundtrip side, imported from the built package (dist/) through
// its own exports, exactly as a user would: the same tools and the same
// answers as the official side (see ./fixtures.mjs).
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { serveHttp } from "mcp-roundtrip/node";
import { McpServer, RequestStateSecurity, elicit, inputRequired } from "mcp-roundtrip/server";
import { validateRequest, validateResult } from "mcp-roundtrip/validate";
import { clientFetch } from "../lib/keepalive-fetch.mjs";
import { startServerProcess } from "../lib/server-process.mjs";
import { confirmRequest, confirmRetry, measurePending } from "./pending.mjs";
import { CONFIRM_ANSWER, CONFIRM_SCHEMA, ECHO_TEXT, SERVER_INFO, confirmedText, stateOf300Bytes, textOf, toolsCallRequest, toolsCallResult } from "./fixtures.mjs";

const SECRET = "bench-secret-bench-secret-bench-secret!";
const TEXT_ARGUMENTS = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const NUMBER_ARGUMENTS = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };

/** Our McpServer with the bench tools (echo, add, confirm); sealing is on by default (ephemeral key). */
export function benchServer(options = {}) {
  const server = new McpServer({ ...SERVER_INFO }, options);
  server.tool("echo", { inputSchema: TEXT_ARGUMENTS }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.tool("add", { inputSchema: NUMBER_ARGUMENTS }, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
  server.tool("confirm", { inputSchema: TEXT_ARGUMENTS }, ({ text }, ctx) => {
    const answer = ctx.inputResponses?.confirm;
    if (answer?.action !== "accept" || answer.content?.confirm !== true) {
      return inputRequired({
        inputRequests: {
          confirm: {
            method: "elicitation/create",
            params: { mode: "form", message: `Confirm ${text}?`, requestedSchema: CONFIRM_SCHEMA },
          },
        },
        requestState: JSON.stringify({ text }),
      });
    }
    const state = JSON.parse(ctx.requestState);
    return { content: [{ type: "text", text: confirmedText(state.text) }] };
  });
  return server;
}

/**
 * The bench server plus `ask`, the same confirmation declared as a need: a
 * 2025 client gets it as an `elicitation/create` over its session (a
 * hand-built `inputRequired` cannot reach a 2025 client), a 2026 one as MRTR.
 */
export function legacyBenchServer(options = {}) {
  const server = benchServer(options);
  server.tool(
    "ask",
    {
      inputSchema: TEXT_ARGUMENTS,
      needs: (need) => need.add("confirm", ({ text }) => elicit({ message: `Confirm ${text}?`, schema: CONFIRM_SCHEMA })),
    },
    ({ text }, { confirm }) => ({
      content: [{ type: "text", text: confirm.action === "accept" && confirm.content.confirm === true ? confirmedText(text) : "declined" }],
    }),
  );
  return server;
}

async function benchClient(target) {
  return Client.connect(target, {
    mode: "2026-07-28",
    clientInfo: { name: "bench-client", version: "1.0.0" },
    onElicit: async () => CONFIRM_ANSWER,
  });
}

function toolCall(client, mrtr) {
  const name = mrtr ? "confirm" : "echo";
  const args = { text: ECHO_TEXT };
  const expected = mrtr ? confirmedText(ECHO_TEXT) : ECHO_TEXT;
  return {
    call: () => client.callTool(name, args),
    check: (result) => {
      const text = textOf(result);
      if (text !== expected) throw new Error(`expected "${expected}", got "${text}"`);
    },
  };
}

/** The 2025 calls: `echo`, or `ask` and its one question over the session. */
function legacyToolCall(client, elicitation) {
  const expected = elicitation ? confirmedText(ECHO_TEXT) : ECHO_TEXT;
  const name = elicitation ? "ask" : "echo";
  const args = { text: ECHO_TEXT };
  return {
    call: () => client.callTool(name, args),
    check: (result) => {
      if (client.protocolVersion !== "2025-11-25") throw new Error(`expected a 2025-11-25 session, got ${client.protocolVersion}`);
      const text = textOf(result);
      if (text !== expected) throw new Error(`expected "${expected}", got "${text}"`);
    },
  };
}

const LEGACY_CLIENT = {
  mode: "2025-11-25",
  clientInfo: { name: "bench-client", version: "1.0.0" },
  onElicit: async () => CONFIRM_ANSWER,
};

/** 2025-11-25 in memory: `Client.connect(server, { mode: "2025-11-25" })`, one legacy session. */
export async function legacyInMemory({ elicitation }) {
  const server = legacyBenchServer();
  const client = await Client.connect(server, LEGACY_CLIENT);
  return {
    ...legacyToolCall(client, elicitation),
    async close() {
      await client.close();
      if (server.server.openSessions !== 0) throw new Error(`${server.server.openSessions} 2025 session(s) still open after close()`);
    },
  };
}

/** 2025-11-25 over Streamable HTTP: `serveHttp` (its own process) holding the session, our client pinned to 2025-11-25. */
export async function legacyHttp({ elicitation, client: fetchKind = "keepalive" }) {
  const { client, close, serverCpu } = await overHttp("serveBench", { legacy: true }, fetchKind, (transport) => Client.connect(transport, LEGACY_CLIENT));
  return { ...legacyToolCall(client, elicitation), close, serverCpu };
}

/** 2026-07-28 in memory: `Client.connect(server)`. */
export async function inMemory({ mrtr }) {
  const server = benchServer();
  const client = await benchClient(server);
  return {
    ...toolCall(client, mrtr),
    async close() {
      await client.close();
    },
  };
}

/**
 * The bench server behind `serveHttp` on 127.0.0.1, as the server process of
 * the HTTP workloads runs it (bench/server-host.mjs): `legacy` adds the
 * 2025 `ask` tool; `stateless` serves 2025 clients without sessions (`legacy: "stateless"`).
 * @param {{ legacy?: boolean, stateless?: boolean }} options
 */
export async function serveBench({ legacy = false, stateless = false } = {}) {
  const options = stateless ? { legacy: "stateless" } : {};
  const listening = await serveHttp(legacy ? legacyBenchServer(options) : benchServer(options), { host: "127.0.0.1", port: 0 });
  return { url: listening.url, close: () => listening.close() };
}

/**
 * `factory` of this module started in a server process of its own, and a
 * client connected through our fetch transport on the `fetchKind` fetch;
 * `close` ends all of it (so does a failed connect); `serverCpu` reads the
 * server process's CPU time.
 */
async function overHttp(factory, options, fetchKind, connect) {
  const remote = await startServerProcess(import.meta.url, factory, options);
  const fetcher = clientFetch(fetchKind);
  const transport = new StreamableHttpClientTransport(remote.url, { fetch: fetcher.fetch });
  const closeAll = async () => {
    await transport.close();
    fetcher.close();
    await remote.close();
  };
  let client;
  try {
    client = await connect(transport);
  } catch (error) {
    await closeAll();
    throw error;
  }
  return {
    client,
    serverCpu: remote.cpuMicros,
    async close() {
      await client.close();
      await closeAll();
    },
  };
}

/** Mint + verify of a 300-byte state with one crypto backend. */
export async function sealVerify({ backend }) {
  const security = new RequestStateSecurity({ keys: [SECRET], crypto: backend, audience: "bench" });
  if (security.crypto !== backend) throw new Error(`asked for the ${backend} backend, got ${security.crypto}`);
  const state = JSON.stringify(stateOf300Bytes());
  const binding = { method: "tools/call", target: "confirm", arguments: { text: ECHO_TEXT } };
  return {
    call: async () => security.verify(await security.mint({ ...binding, state }), binding),
    check: (result) => {
      if (result !== state) throw new Error("our security did not round-trip the state");
    },
    async close() {},
  };
}

/** Our generated AJV validators: a `tools/call` request, then its result. */
export async function validate() {
  const request = toolsCallRequest();
  const result = toolsCallResult();
  return {
    callSync: () => validateRequest("tools/call", request).ok && validateResult("tools/call", result).ok,
    check: (ok) => {
      if (ok !== true) throw new Error("our validators rejected a valid tools/call exchange");
      if (validateResult("tools/call", { resultType: "complete", content: [{ type: "text" }] }).ok) {
        throw new Error("our validators accepted a text block without text");
      }
    },
    async close() {},
  };
}

/** Heap growth of our McpServer across pending first rounds. */
export async function pending({ count, warmup }) {
  return measurePending(benchServer(), (i) => confirmRequest(i), confirmRetry, { count, warmup });
}
