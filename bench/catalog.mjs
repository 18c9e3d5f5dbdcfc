// Every workload the bench runs, in the order it runs them. Workloads that
// are compared sit next to each other, so each repetition of a pair runs
// back to back and their ratio sees the same machine load; a server and the
// floor it is judged against go further, measured in one window, a slice of
// each in turn (`interleave`).

import { MODERN_PROTOCOL_VERSION } from "mcp-roundtrip/client";

const here = (path) => new URL(path, import.meta.url).href;
const OURS = here("./workloads/ours.mjs");
const OFFICIAL = here("./workloads/official.mjs");
const ECHO = here("./workloads/echo.mjs");
const ELICIT_FLOOR = here("./workloads/elicit-floor.mjs");
const PENDING = here("./workloads/pending.mjs");
const TASKS = here("./workloads/tasks.mjs");
const LISTENERS = here("./workloads/listeners.mjs");
const CRYPTO_FLOOR = here("./workloads/crypto-floor.mjs");
const COLD_START = here("./workloads/cold-start.mjs");
const PLAIN_HTTP = here("./workloads/plain-http.mjs");
const SESSIONS = here("./workloads/sessions.mjs");

/** Concurrency levels of the in-process tool calls, MRTR over HTTP and 2025 sessions with elicitation. */
export const CONCURRENCY = [1, 16];

/**
 * Concurrency levels of plain calls over HTTP, where the server's CPU time
 * per call is judged against the bare echo and the peers: enough calls in
 * flight that the server process, not the client, sets the pace.
 */
export const PLAIN_HTTP_CONCURRENCY = [16, 64];

/**
 * MRTR calls of the peak-RSS workloads, the same for both SDKs. Theirs runs
 * about 250 calls/s here, so 5,000 calls take ~20 s a repetition: enough for
 * memory that grows with work to show, short enough for five repetitions.
 */
export const RSS_CALLS = 5_000;

/**
 * @typedef {object} Workload
 * @property {string} id unique, stable, used in results and on the command line
 * @property {string} group the table it is reported in
 * @property {string} label what the row says
 * @property {"ours"|"official"|"peer"|"baseline"} side
 * @property {string} module absolute URL of the module holding the factory
 * @property {string} factory the exported function that sets the workload up
 * @property {object} options passed to the factory
 * @property {"async"|"sync"|"custom"} mode how the worker drives it ("custom": the factory measures itself and returns `value`)
 * @property {string} unit what `value` counts
 * @property {number} [concurrency] in-flight operations for async workloads
 * @property {number} [roundTrips] requests per operation (2 for MRTR)
 * @property {string[]} [nodeFlags] extra flags for the worker process
 * @property {number} [fixedOps] a fixed amount of work instead of a timed window: exactly this many operations
 *   (capped by the profile's maxFixedOps), no warm-up, bounded by the profile's fixedDeadlineMs. The peak-RSS
 *   workloads use it, so both SDKs do the same work rather than the faster one doing far more in the same time.
 * @property {string} [interleave] workloads that name the same set are measured in one worker and one window, a
 *   slice of each in turn (bench/lib/interleave.mjs): a server and the floor it is judged against see the same
 *   spells of a shared machine's load. The set runs where its first member is listed.
 */

/** @returns {Workload[]} */
export function workloads() {
  const list = [];
  for (const mrtr of [false, true]) {
    const kind = mrtr ? "mrtr" : "plain";
    const roundTrips = mrtr ? 2 : 1;
    for (const concurrency of CONCURRENCY) {
      const common = { mode: "async", unit: "calls/s", concurrency, roundTrips, options: { mrtr } };
      list.push(
        {
          ...common,
          id: `inproc.${kind}.ours.c${concurrency}`,
          group: `inproc.${kind}`,
          label: "mcp-roundtrip, in memory (2026-07-28)",
          side: "ours",
          module: OURS,
          factory: "inMemory",
        },
        {
          ...common,
          id: `inproc.${kind}.official2026.c${concurrency}`,
          group: `inproc.${kind}`,
          label: "official SDK, HTTP handler via fetch shim (2026-07-28)",
          side: "official",
          module: OFFICIAL,
          factory: "inProcess2026",
        },
        {
          ...common,
          id: `inproc.${kind}.official2025.c${concurrency}`,
          group: `inproc.${kind}`,
          label: "official SDK, InMemoryTransport (2025-11-25)",
          side: "official",
          module: OFFICIAL,
          factory: "inMemory2025",
        },
      );
    }
  }
  // The 2025 path in process: a client pinned to 2025-11-25 on one session, a
  // plain call or one that asks one question over the session mid-call.
  for (const elicitation of [false, true]) {
    const kind = elicitation ? "elicit" : "plain";
    const roundTrips = elicitation ? 2 : 1;
    for (const concurrency of CONCURRENCY) {
      const common = { mode: "async", unit: "calls/s", concurrency, roundTrips, options: { elicitation }, group: `legacy.inproc.${kind}` };
      list.push(
        {
          ...common,
          id: `legacy.inproc.${kind}.ours.c${concurrency}`,
          label: 'mcp-roundtrip, in-memory 2025 session (Client mode "2025-11-25")',
          side: "ours",
          module: OURS,
          factory: "legacyInMemory",
        },
        {
          ...common,
          id: `legacy.inproc.${kind}.official.c${concurrency}`,
          label: "official SDK, InMemoryTransport (2025-11-25)",
          side: "official",
          module: OFFICIAL,
          factory: "legacyInMemory",
        },
      );
    }
  }
  // Over HTTP every server runs in a process of its own, pinned to its own
  // CPU (bench/lib/server-process.mjs): its CPU time per call is the figure.
  const echoRow = (concurrency, client = "keepalive") => ({
    mode: "async",
    unit: "calls/s",
    concurrency,
    roundTrips: 1,
    group: "http.plain",
    id: client === "global" ? `http.echo-undici.c${concurrency}` : `http.echo.c${concurrency}`,
    label: client === "global" ? "bare node:http JSON echo, global fetch client (reference)" : "bare node:http JSON echo (floor)",
    side: "baseline",
    ...(client !== "global" && { interleave: `http.floor.c${concurrency}` }),
    ...(client === "global"
      ? { module: ECHO, factory: "httpEcho", options: { client } }
      : { module: PLAIN_HTTP, factory: "plainHttp", options: { server: "echo", era: "2026-07-28" } }),
  });
  // A 2025 client without a session: bare 2025 calls (no initialize), answered statelessly
  // (ours `legacy: "stateless"`, theirs `createMcpHandler`'s default `legacy: "stateless"`).
  // The 2025 path over Streamable HTTP with sessions (Mcp-Session-Id). Plain
  // calls go through the one raw load client; the question of an eliciting
  // call goes out on the call's SSE stream and its answer comes back as a
  // POST, so those rows use each SDK's own client.
  const sessionRows = (concurrency) => {
    const common = { mode: "async", unit: "calls/s", concurrency, roundTrips: 1, group: "legacy.http.plain", module: PLAIN_HTTP, factory: "plainHttp" };
    const era = "2025-11-25";
    list.push(
      {
        ...common,
        id: `legacy.http.plain.ours.c${concurrency}`,
        label: "mcp-roundtrip, serveHttp 2025 session",
        side: "ours",
        options: { server: "ours", era },
        ...(PLAIN_HTTP_CONCURRENCY.includes(concurrency) && { interleave: `http.floor.c${concurrency}` }),
      },
      {
        ...common,
        id: `legacy.http.plain.official.c${concurrency}`,
        label: "official SDK, WebStandardStreamableHTTPServerTransport with sessionIdGenerator, JSON responses",
        side: "official",
        options: { server: "official", era },
      },
      {
        ...common,
        id: `legacy.http.plain.officialSse.c${concurrency}`,
        label: "official SDK, WebStandardStreamableHTTPServerTransport with sessionIdGenerator, default SSE responses",
        side: "official",
        options: { server: "officialSse", era },
      },
    );
    if (PLAIN_HTTP_CONCURRENCY.includes(concurrency)) {
      list.push({
        ...common,
        id: `legacy.http.plain.tmcp.c${concurrency}`,
        label: "tmcp 1.20, HttpTransport session (2025-06-18, its newest) behind @hono/node-server",
        side: "peer",
        options: { server: "tmcp", era, expectVersion: "2025-06-18" },
      });
    }
  };
  const statelessRows = (concurrency) => {
    const common = { mode: "async", unit: "calls/s", concurrency, roundTrips: 1, group: "legacy.http.stateless", module: PLAIN_HTTP, factory: "plainHttp" };
    const options = (server) => ({ server, era: "2025-11-25", session: false });
    list.push(
      {
        ...common,
        id: `legacy.http.echo.c${concurrency}`,
        label: "bare node:http JSON echo, sent the 2025 calls and answering their bytes (floor of the 2025 rows)",
        side: "baseline",
        options: options("echo"),
        interleave: `http.floor.c${concurrency}`,
      },
      {
        ...common,
        id: `legacy.http.checks.c${concurrency}`,
        label: "the 2025 floor with our checks: header rules, request, arguments and result validated (reference)",
        side: "baseline",
        options: options("checks"),
        interleave: `http.floor.c${concurrency}`,
      },
      {
        ...common,
        id: `legacy.http.stateless.ours.c${concurrency}`,
        label: 'mcp-roundtrip, serveHttp, legacy: "stateless"',
        side: "ours",
        options: options("ours"),
        interleave: `http.floor.c${concurrency}`,
      },
      {
        ...common,
        id: `legacy.http.stateless.official.c${concurrency}`,
        label: 'official SDK, createMcpHandler (legacy: "stateless", a fresh server and transport per request) behind node:http',
        side: "official",
        options: options("official"),
      },
      {
        ...common,
        id: `legacy.http.stateless.tmcp.c${concurrency}`,
        label: "tmcp 1.20, HttpTransport behind @hono/node-server, no session header",
        side: "peer",
        options: options("tmcp"),
      },
    );
  };
  for (const concurrency of PLAIN_HTTP_CONCURRENCY) {
    const common = { mode: "async", unit: "calls/s", concurrency, roundTrips: 1, group: "http.plain", module: PLAIN_HTTP, factory: "plainHttp" };
    list.push(
      {
        ...common,
        id: `http.plain.ours.c${concurrency}`,
        label: "mcp-roundtrip, serveHttp",
        side: "ours",
        options: { server: "ours", era: "2026-07-28" },
        interleave: `http.floor.c${concurrency}`,
      },
      {
        ...common,
        id: `http.plain.official.c${concurrency}`,
        label: "official SDK, createMcpHandler behind node:http",
        side: "official",
        options: { server: "official", era: "2026-07-28" },
      },
      {
        ...common,
        id: `http.plain.tmcp.c${concurrency}`,
        label: "tmcp 1.20, HttpTransport behind @hono/node-server",
        side: "peer",
        options: { server: "tmcp", era: "2026-07-28" },
      },
      echoRow(concurrency),
      {
        ...common,
        id: `http.checks.c${concurrency}`,
        label: "the floor with our checks: header rules, request with its envelope, arguments and result validated (reference)",
        side: "baseline",
        options: { server: "checks", era: "2026-07-28" },
        interleave: `http.floor.c${concurrency}`,
      },
    );
    // Beside the floor they are judged against: the ours rows among them share its window (`interleave`).
    statelessRows(concurrency);
    sessionRows(concurrency);
    if (concurrency === 16) list.push(echoRow(concurrency, "global"));
  }
  // The echo at c=1 is the floor of ours at c=1, whose p50 latency is judged against the floor's, and the
  // reference under the c=1 MRTR and 2025 session rows (reported with the plain ones).
  list.push(echoRow(1), {
    mode: "async",
    unit: "calls/s",
    concurrency: 1,
    roundTrips: 1,
    group: "http.plain",
    module: PLAIN_HTTP,
    factory: "plainHttp",
    id: "http.plain.ours.c1",
    label: "mcp-roundtrip, serveHttp",
    side: "ours",
    options: { server: "ours", era: "2026-07-28" },
    interleave: "http.floor.c1",
  });
  for (const concurrency of CONCURRENCY) {
    // The one raw load client here too (two rounds per call), as for the echo these rows are judged against.
    const common = { mode: "async", unit: "calls/s", concurrency, roundTrips: 2, group: "http.mrtr", module: PLAIN_HTTP, factory: "plainHttp" };
    const options = (server) => ({ server, era: "2026-07-28", mrtr: true });
    list.push(
      {
        ...common,
        id: `http.mrtr.floor.c${concurrency}`,
        label: "bare node:http playing the same two rounds, the state sealed with node:crypto AES-256-GCM (floor)",
        side: "baseline",
        options: options("mrtrFloor"),
        interleave: `http.mrtr.floor.c${concurrency}`,
      },
      {
        ...common,
        id: `http.mrtr.ours.c${concurrency}`,
        label: "mcp-roundtrip, serveHttp",
        side: "ours",
        options: options("ours"),
        interleave: `http.mrtr.floor.c${concurrency}`,
      },
      {
        ...common,
        id: `http.mrtr.official.c${concurrency}`,
        label: "official SDK, createMcpHandler behind node:http",
        side: "official",
        options: options("official"),
      },
    );
  }
  // The 2025 session rows at c=1 (those at c=16 and c=64 run beside the floor, above).
  for (const concurrency of CONCURRENCY.filter((c) => !PLAIN_HTTP_CONCURRENCY.includes(c))) sessionRows(concurrency);
  for (const concurrency of CONCURRENCY) {
    const common = { mode: "async", unit: "calls/s", concurrency, roundTrips: 2, options: { elicitation: true }, group: "legacy.http.elicit" };
    list.push(
      {
        ...common,
        id: `legacy.http.elicit.floor.c${concurrency}`,
        label: "bare node:http playing the same session with canned answers, our client (floor)",
        side: "baseline",
        module: ELICIT_FLOOR,
        factory: "legacyHttpFloor",
      },
      {
        ...common,
        id: `legacy.http.elicit.ours.c${concurrency}`,
        label: 'mcp-roundtrip, serveHttp 2025 session + our client (mode "2025-11-25")',
        side: "ours",
        module: OURS,
        factory: "legacyHttp",
      },
      {
        ...common,
        id: `legacy.http.elicit.official.c${concurrency}`,
        label: "official SDK, WebStandardStreamableHTTPServerTransport with sessionIdGenerator, JSON responses, their client",
        side: "official",
        module: OFFICIAL,
        factory: "legacyHttp",
      },
      {
        ...common,
        options: { elicitation: true, jsonResponse: false },
        id: `legacy.http.elicit.officialSse.c${concurrency}`,
        label: "official SDK, WebStandardStreamableHTTPServerTransport with sessionIdGenerator, default SSE responses, their client",
        side: "official",
        module: OFFICIAL,
        factory: "legacyHttp",
      },
    );
  }
  const fixedWork = { mode: "async", unit: "calls/s", concurrency: 16, roundTrips: 2, options: { mrtr: true }, group: "rss", fixedOps: RSS_CALLS };
  list.push(
    {
      ...fixedWork,
      id: "rss.mrtr.ours",
      label: `mcp-roundtrip, in memory, ${RSS_CALLS.toLocaleString("en-US")} MRTR calls, c=16`,
      side: "ours",
      module: OURS,
      factory: "inMemory",
    },
    {
      ...fixedWork,
      id: "rss.mrtr.official2026",
      label: `official SDK, fetch shim, ${RSS_CALLS.toLocaleString("en-US")} MRTR calls, c=16`,
      side: "official",
      module: OFFICIAL,
      factory: "inProcess2026",
    },
  );
  list.push(
    {
      id: "seal.ours.node",
      group: "seal",
      label: "mcp-roundtrip, AES-256-GCM, node:crypto backend",
      side: "ours",
      module: OURS,
      factory: "sealVerify",
      options: { backend: "node" },
      mode: "async",
      concurrency: 1,
      unit: "ops/s",
    },
    {
      id: "seal.ours.noble",
      group: "seal",
      label: "mcp-roundtrip, AES-256-GCM, @noble/ciphers backend",
      side: "ours",
      module: OURS,
      factory: "sealVerify",
      options: { backend: "noble" },
      mode: "async",
      concurrency: 1,
      unit: "ops/s",
    },
    {
      id: "seal.floor",
      group: "seal",
      label: "node:crypto AES-256-GCM seal + open alone, no token format (floor)",
      side: "baseline",
      module: CRYPTO_FLOOR,
      factory: "aesGcmFloor",
      options: {},
      mode: "async",
      concurrency: 1,
      unit: "ops/s",
    },
    {
      id: "seal.official",
      group: "seal",
      label: "official SDK, HMAC-SHA256 codec (signed only)",
      side: "official",
      module: OFFICIAL,
      factory: "sealVerify",
      options: {},
      mode: "async",
      concurrency: 1,
      unit: "ops/s",
    },
    {
      id: "validate.ours",
      group: "validate",
      label: "mcp-roundtrip, AJV standalone validators",
      side: "ours",
      module: OURS,
      factory: "validate",
      options: {},
      mode: "sync",
      unit: "ops/s",
    },
    {
      id: "validate.official",
      group: "validate",
      label: "official SDK, zod schemas (specTypeSchemas)",
      side: "official",
      module: OFFICIAL,
      factory: "validate",
      options: {},
      mode: "sync",
      unit: "ops/s",
    },
    {
      id: "pending.ours",
      group: "pending",
      label: "mcp-roundtrip McpServer, sealed requestState",
      side: "ours",
      module: OURS,
      factory: "pending",
      options: {},
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
    {
      id: "pending.stateful",
      group: "pending",
      label: "stateful server, exchanges kept in a Map",
      side: "baseline",
      module: PENDING,
      factory: "statefulPending",
      options: {},
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
    {
      id: "pending.tasks",
      group: "pending",
      label: "mcp-roundtrip McpServer, tasks parked in input_required (tasks extension)",
      side: "ours",
      module: TASKS,
      factory: "pendingTasks",
      options: {},
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
    {
      id: "listeners.ours",
      group: "listeners",
      label: "mcp-roundtrip McpServer, idle subscriptions/listen streams",
      side: "ours",
      module: LISTENERS,
      factory: "idleListeners",
      options: {},
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
    {
      id: "listeners.floor",
      group: "listeners",
      label: "floor: the same requests and contexts, a handler that only waits",
      side: "baseline",
      module: LISTENERS,
      factory: "idleListenersFloor",
      options: {},
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
    {
      id: "listeners.web.ours",
      group: "listeners",
      label: "mcp-roundtrip createHttpHandler, idle listen SSE responses",
      side: "ours",
      module: LISTENERS,
      factory: "webListeners",
      options: { sdk: "ours" },
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
    {
      id: "listeners.web.floor",
      group: "listeners",
      label: "floor: the same Requests and SSE streams, a handler that keeps only the stream and watches the request's signal",
      side: "baseline",
      module: LISTENERS,
      factory: "webListeners",
      options: { sdk: "floor" },
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
    {
      id: "listeners.web.official",
      group: "listeners",
      label: "official SDK createMcpHandler, idle listen SSE responses",
      side: "official",
      module: LISTENERS,
      factory: "webListeners",
      options: { sdk: "official" },
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    },
  );
  // Idle 2025 sessions: heap per session with 10,000 open (initialize + initialized, then nothing).
  for (const [sdk, label, side] of [
    ["ours", "mcp-roundtrip createHttpHandler, idle 2025 sessions", "ours"],
    ["official1", "official SDK v1 1.32, stateful (a transport and an McpServer per session)", "official"],
    ["tmcp", "tmcp 1.20 HttpTransport, idle sessions", "peer"],
  ]) {
    list.push({
      id: `sessions.${sdk}`,
      group: "sessions",
      label,
      side,
      module: SESSIONS,
      factory: "idleSessions",
      options: { sdk },
      mode: "custom",
      unit: "bytes",
      nodeFlags: ["--expose-gc"],
    });
  }
  const coldStart = { group: "coldstart", module: COLD_START, factory: "coldStart", mode: "custom", unit: "ms" };
  list.push(
    {
      ...coldStart,
      id: "coldstart.ours",
      label: `mcp-roundtrip, Client.connect(mcpServer), default mode (${MODERN_PROTOCOL_VERSION})`,
      side: "ours",
      // The default mode speaks the newest revision both sides share: with a revision added, that one.
      options: { sdk: "ours", protocolVersion: MODERN_PROTOCOL_VERSION },
    },
    {
      ...coldStart,
      id: "coldstart.official",
      label: "official SDK, InMemoryTransport (2025-11-25)",
      side: "official",
      options: { sdk: "official", protocolVersion: "2025-11-25" },
    },
    {
      ...coldStart,
      id: "coldstart.ours2025",
      label: 'mcp-roundtrip, Client.connect(mcpServer, { mode: "2025-11-25" }) (loads the 2025 validators)',
      side: "ours",
      options: { sdk: "ours", mode: "2025-11-25", protocolVersion: "2025-11-25" },
    },
  );
  // Cold start over HTTP: spawn → the first verified tools/call from outside, each row's runs back to back.
  for (const [sdk, label, side] of [
    ["bare", "bare node:http JSON-RPC echo server (floor)", "baseline"],
    ["ours", "mcp-roundtrip, McpServer + serveHttp", "ours"],
    ["tmcp", "tmcp 1.20, HttpTransport behind @hono/node-server", "peer"],
  ]) {
    list.push({
      group: "coldstart.http",
      module: COLD_START,
      factory: "httpColdStart",
      mode: "custom",
      unit: "ms",
      id: `coldstart.http.${sdk}`,
      label,
      side,
      options: { sdk },
    });
  }
  return list;
}

/**
 * Looks a workload up by id.
 * @param {string} id
 * @returns {Workload}
 * @throws {RangeError} for an unknown id, listing the known ones.
 */
export function workload(id) {
  const found = workloads().find((w) => w.id === id);
  if (!found) {
    throw new RangeError(
      `unknown workload "${id}"; known: ${workloads()
        .map((w) => w.id)
        .join(", ")}`,
    );
  }
  return found;
}
