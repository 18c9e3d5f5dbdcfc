// The comparisons the report computes, and the performance budgets attached
// to them: each target with the one-line reason it is what it is. This file
// is where the budgets live; RESULTS.md cites it.
import { CONCURRENCY, PLAIN_HTTP_CONCURRENCY, RSS_CALLS } from "./catalog.mjs";

/**
 * Server CPU per plain call over HTTP as a multiple of the bare node:http floor (issue 37): measured with a
 * load client that costs well under the floor server (bench/lib/raw-client.mjs), so the floor is not inflated
 * by a server idling between calls.
 */
const FLOOR_MARGIN = 1.2;
const FLOOR_REASON =
  "the floor parses, answers and writes the same JSON-RPC over the same node:http with nothing a protocol asks: the headers, the envelope, both schemas, the result shaping and its write may add at most 20 % (issue 37)";
/** The official SDK's server CPU per plain call over ours (issue 37). */
const OFFICIAL_LEAD = 8;
const OFFICIAL_REASON = "over a real socket the wire is shared: the SDK's own cost per request is what we cut (4× in issue 26, 8× in issue 37)";
/** tmcp's server CPU per plain call over ours: set after the first same-run measurement (see TMCP_REASON). */
const TMCP_LEAD = 4;
const TMCP_REASON = "the fastest published peer: the protocol work beside it must cost a quarter (issue 26)";
/** Heap one idle listen stream may hold over the web-standard handler, all of it, the harness's own share included. */
const LISTEN_STREAM_BYTES = 4 * 1024;
const LISTEN_STREAM_REASON =
  "issue 26's target: an idle stream waits for hours, by the thousand; once acknowledged it keeps one object of ours (~150 B, PROFILES.md) beside what the harness holds";
/**
 * What our handler may hold per idle listen stream, as a multiple of the web floor (a handler that
 * keeps only the stream's controller and a listener on the request's signal): no more than it, since
 * an acknowledged stream keeps one small object of ours and not the request (PROFILES.md).
 */
const LISTEN_ABOVE_FLOOR = 1;
/**
 * The 2025 elicitation call over HTTP as a multiple of its floor (bare node:http playing the same
 * session with canned answers, driven by the same client): what the protocol work may add.
 */
const ELICIT_ABOVE_FLOOR = { 1: 1.5, 16: 1.3 };
/** Ours over the MRTR floor: the plain call's margin on its HTTP and JSON work plus the token format's own cost (issue 37). */
const MRTR_ABOVE_FLOOR = 1.3;
const ELICIT_FLOOR_REASON =
  "the elicitation floor makes the same three socket writes and reads the same two requests; above it is the protocol work (the session, the needs engine, the question's schema, the resumption log): PROFILES.md";

/**
 * @typedef {object} Comparison
 * @property {string} id
 * @property {string} label
 * @property {string} numerator workload id
 * @property {string} denominator workload id
 * @property {"value"|"maxRssBytes"|"rssGrowthBytes"|"cpuMicrosPerOp"|"serverCpuMicrosPerOp"|"cpuAboveMs"|"cpuMs"} [field] what is compared; `value` by default
 * @property {number} [numeratorScale] multiplies the numerator first (2 turns MRTR calls/s into requests/s)
 * @property {number} [atLeast] the budget: the ratio must reach this
 * @property {number} [atMost] the budget: the ratio must not exceed this
 * @property {string} [reason] why the budget is what it is, one line, shown beside it
 */

/** @returns {Comparison[]} */
export function comparisons() {
  const list = [];
  for (const c of CONCURRENCY) {
    list.push(
      {
        id: `inproc.plain.vs2026.c${c}`,
        label: `in-process plain, c=${c}: ours / official 2026 path`,
        numerator: `inproc.plain.ours.c${c}`,
        denominator: `inproc.plain.official2026.c${c}`,
        atLeast: 18,
        reason: "in process the protocol is all there is: per-request validation and sealing must stay cheap beside their HTTP-shaped 2026 path",
      },
      {
        id: `inproc.plain.vs2025.c${c}`,
        label: `in-process plain, c=${c}: ours / official 2025 in-memory`,
        numerator: `inproc.plain.ours.c${c}`,
        denominator: `inproc.plain.official2025.c${c}`,
        atLeast: 1.5,
        reason: "their InMemoryTransport is their fastest route, built for 2025 sessions: we must still lead it",
      },
      {
        id: `inproc.mrtr.vs2026.c${c}`,
        label: `in-process MRTR, c=${c}: ours / official 2026 path`,
        numerator: `inproc.mrtr.ours.c${c}`,
        denominator: `inproc.mrtr.official2026.c${c}`,
        atLeast: 15,
        reason: "a full MRTR exchange seals and verifies state twice; it may cost more than a plain call, not lose the lead",
      },
      {
        id: `inproc.mrtr.vs2025.c${c}`,
        label: `in-process MRTR, c=${c}: ours / official 2025 in-memory`,
        numerator: `inproc.mrtr.ours.c${c}`,
        denominator: `inproc.mrtr.official2025.c${c}`,
        atLeast: 2,
        reason: "their 2025 path answers input in one exchange over a live session; ours pays two sealed rounds and must still win",
      },
    );
  }
  const CPU = "serverCpuMicrosPerOp";
  // Plain calls over HTTP, both generations: the server process's CPU per call.
  for (const c of PLAIN_HTTP_CONCURRENCY) {
    // Each generation against the floor sent its own requests and answering the same bytes as ours.
    for (const [era, prefix, floor, checks] of [
      ["2026-07-28", "http.plain", `http.echo.c${c}`, `http.checks.c${c}`],
      ["2025-11-25 session", "legacy.http.plain", `legacy.http.echo.c${c}`, `legacy.http.checks.c${c}`],
      ["2025-11-25 without a session", "legacy.http.stateless", `legacy.http.echo.c${c}`, `legacy.http.checks.c${c}`],
    ]) {
      list.push(
        {
          id: `${prefix}.cpuVsEcho.c${c}`,
          label: `HTTP plain (${era}), c=${c}, server CPU per call: ours / bare node:http echo of the same calls`,
          numerator: `${prefix}.ours.c${c}`,
          denominator: floor,
          field: CPU,
          atMost: FLOOR_MARGIN,
          reason: FLOOR_REASON,
        },
        {
          id: `${prefix}.cpuVsTmcp.c${c}`,
          label: `HTTP plain (${era}), c=${c}, server CPU per call: tmcp / ours`,
          numerator: `${prefix}.tmcp.c${c}`,
          denominator: `${prefix}.ours.c${c}`,
          field: CPU,
          atLeast: TMCP_LEAD,
          reason: TMCP_REASON,
        },
        {
          id: `${prefix}.vsChecks.c${c}`,
          label: `HTTP plain (${era}), c=${c}, server CPU per call: ours / the floor with our checks (what the SDK's own structure adds)`,
          numerator: `${prefix}.ours.c${c}`,
          denominator: checks,
          field: CPU,
        },
        {
          id: `${prefix}.tmcpCeiling.c${c}`,
          label: `HTTP plain (${era}), c=${c}, server CPU per call: tmcp / bare echo: the most any server here could lead tmcp by`,
          numerator: `${prefix}.tmcp.c${c}`,
          denominator: floor,
          field: CPU,
        },
      );
    }
    for (const [era, prefix] of [
      ["2026-07-28", "http"],
      ["2025-11-25", "legacy.http"],
    ]) {
      list.push({
        id: `${prefix}.checks.vsEcho.c${c}`,
        label: `HTTP plain (${era}), c=${c}, server CPU per call: the floor with our checks / the bare floor (what the checks cost any server)`,
        numerator: `${prefix}.checks.c${c}`,
        denominator: `${prefix}.echo.c${c}`,
        field: CPU,
      });
    }
    list.push(
      {
        id: `http.plain.vsOfficial.c${c}`,
        label: `HTTP plain, c=${c}, server CPU per call: official / ours`,
        numerator: `http.plain.official.c${c}`,
        denominator: `http.plain.ours.c${c}`,
        field: CPU,
        atLeast: OFFICIAL_LEAD,
        reason: OFFICIAL_REASON,
      },
      {
        id: `legacy.http.stateless.vsOfficial.c${c}`,
        label: `HTTP plain (2025-11-25 without a session), c=${c}, server CPU per call: official / ours`,
        numerator: `legacy.http.stateless.official.c${c}`,
        denominator: `legacy.http.stateless.ours.c${c}`,
        field: CPU,
        atLeast: OFFICIAL_LEAD,
        reason: OFFICIAL_REASON,
      },
      {
        id: `legacy.http.plain.vsOfficialJson.c${c}`,
        label: `HTTP plain (2025-11-25 session), c=${c}, server CPU per call: official in JSON-answer mode (their fastest) / ours`,
        numerator: `legacy.http.plain.official.c${c}`,
        denominator: `legacy.http.plain.ours.c${c}`,
        field: CPU,
      },
      {
        id: `http.plain.throughput.c${c}`,
        label: `HTTP plain, c=${c}, calls/s: ours / bare echo (reference; the client shares nothing with the server but the machine)`,
        numerator: `http.plain.ours.c${c}`,
        denominator: `http.echo.c${c}`,
      },
    );
  }
  list.push({
    id: "http.plain.latency.c1",
    label: "HTTP plain (2026-07-28), c=1, p50 latency seen by the load client: ours / bare echo",
    numerator: "http.plain.ours.c1",
    denominator: "http.echo.c1",
    field: "latencyP50Ms",
    atMost: FLOOR_MARGIN,
    reason: "one call alone on an idle server: what the protocol adds to a round trip, the same margin as its CPU (issue 37)",
  });
  for (const c of CONCURRENCY) {
    list.push(
      {
        id: `http.mrtr.vsOfficial.c${c}`,
        label: `HTTP MRTR, c=${c}, server CPU per call: official / ours`,
        numerator: `http.mrtr.official.c${c}`,
        denominator: `http.mrtr.ours.c${c}`,
        field: CPU,
        atLeast: 4,
        reason: "the same lead for multi-round calls, sealing included",
      },
      {
        id: `http.mrtr.vsFloor.c${c}`,
        label: `HTTP MRTR, c=${c}, server CPU per call: ours / the MRTR floor (bare node:http, the state sealed with bare AES-256-GCM)`,
        numerator: `http.mrtr.ours.c${c}`,
        denominator: `http.mrtr.floor.c${c}`,
        field: CPU,
        atMost: MRTR_ABOVE_FLOOR,
        reason:
          "re-set from bare echo / ours per request ≥ 0.5× (issue 37): the MRTR floor plays the same two rounds with a sealed state, and above it ours may add what the other budgets allow, the plain call's protocol work (≤ 1.2× its floor) and the token format (envelope, binding digest, key id, base64url: the seal row), ~1.3× together",
      },
      {
        id: `http.mrtr.vsEcho.c${c}`,
        label: `HTTP MRTR, c=${c}, server CPU per request: bare echo / ours (2 requests per call; reference)`,
        numerator: `http.echo.c${c}`,
        denominator: `http.mrtr.ours.c${c}`,
        numeratorScale: 2,
        field: CPU,
      },
      {
        id: `http.mrtr.floorVsEcho.c${c}`,
        label: `HTTP MRTR, c=${c}, server CPU per request: bare echo / the MRTR floor (the most any node:http server that seals its state could reach on the row above)`,
        numerator: `http.echo.c${c}`,
        denominator: `http.mrtr.floor.c${c}`,
        numeratorScale: 2,
        field: CPU,
      },
    );
  }
  for (const c of CONCURRENCY) {
    for (const kind of ["plain", "elicit"]) {
      const what = kind === "plain" ? "plain" : "one elicitation per call";
      list.push(
        {
          id: `legacy.http.${kind}.vsDefault.c${c}`,
          label: `2025 path over Streamable HTTP (sessions), ${what}, c=${c}, server CPU per call: official with its default SSE answers / ours`,
          numerator: `legacy.http.${kind}.officialSse.c${c}`,
          denominator: `legacy.http.${kind}.ours.c${c}`,
          field: CPU,
          ...(kind === "plain"
            ? { atLeast: 4, reason: "a 2025 client over HTTP gets the same 4× lead as a 2026 one, against their session wiring as documented (SSE answers)" }
            : {
                atLeast: c === 1 ? 3 : 2.75,
                reason:
                  "re-set from 4× by the floor row (issue 26): bare node:http playing the same session costs ~1/4.8 of theirs at c=1 and ~1/3.8 at c=16, so 4× at c=16 is out of reach of any server on node:http (PROFILES.md)",
              }),
        },
        {
          id: `legacy.http.${kind}.c${c}`,
          label: `2025 path over Streamable HTTP (sessions), ${what}, c=${c}, server CPU per call: official in JSON-answer mode (their fastest) / ours`,
          numerator: `legacy.http.${kind}.official.c${c}`,
          denominator: `legacy.http.${kind}.ours.c${c}`,
          field: CPU,
        },
      );
    }
  }
  for (const c of CONCURRENCY) {
    list.push(
      {
        id: `legacy.http.elicit.vsFloor.c${c}`,
        label: `2025 path over Streamable HTTP (sessions), one elicitation per call, c=${c}, server CPU per call: ours / the elicitation floor`,
        numerator: `legacy.http.elicit.ours.c${c}`,
        denominator: `legacy.http.elicit.floor.c${c}`,
        field: CPU,
        atMost: ELICIT_ABOVE_FLOOR[c],
        reason: ELICIT_FLOOR_REASON,
      },
      {
        id: `legacy.http.elicit.officialOverFloor.c${c}`,
        label: `2025 path over Streamable HTTP (sessions), one elicitation per call, c=${c}, server CPU per call: official with its default SSE answers / the elicitation floor (the most any node:http server could lead by)`,
        numerator: `legacy.http.elicit.officialSse.c${c}`,
        denominator: `legacy.http.elicit.floor.c${c}`,
        field: CPU,
      },
    );
  }
  list.push({
    id: "legacy.http.plain.cpuVsEcho.c1",
    label: "2025 path over Streamable HTTP (sessions), plain, c=1, server CPU per call: ours / bare node:http echo sent 2026-07-28 calls (reference)",
    numerator: "legacy.http.plain.ours.c1",
    denominator: "http.echo.c1",
    field: CPU,
  });
  list.push(
    {
      id: "listeners.web.vsOfficial",
      label: "heap per idle subscriptions/listen stream over the web-standard handler: official / ours",
      numerator: "listeners.web.official",
      denominator: "listeners.web.ours",
      atLeast: 1.4,
      reason: "an idle stream waits for hours, by the thousand: well below the official SDK's (issue 26)",
    },
    {
      id: "listeners.web.vsFloor",
      label:
        "heap per idle subscriptions/listen stream over the web-standard handler: ours / the web floor (a handler that keeps only the stream and the request's signal)",
      numerator: "listeners.web.ours",
      denominator: "listeners.web.floor",
      atMost: LISTEN_ABOVE_FLOOR,
      reason:
        "an acknowledged stream keeps one object of ours (~150 B) and lets go of the request, so it may not cost more than the harness's own floor (PROFILES.md)",
    },
    {
      id: "sessions.vsOfficial1",
      label: "heap per idle 2025 session (10,000): official v1 stateful / ours",
      numerator: "sessions.official1",
      denominator: "sessions.ours",
      atLeast: 2,
      reason: "a 2025 session is a table entry, not a server: ours at most half the best peer's (issue 26)",
    },
    {
      id: "sessions.vsTmcp",
      label: "heap per idle 2025 session (10,000): tmcp / ours",
      numerator: "sessions.tmcp",
      denominator: "sessions.ours",
      atLeast: 2,
      reason: "a 2025 session is a table entry, not a server: ours at most half the best peer's (issue 26)",
    },
  );
  list.push(
    {
      id: "coldstart.vsOfficial",
      label: "cold start above bare node: official / ours (how many times longer theirs takes)",
      numerator: "coldstart.official",
      denominator: "coldstart.ours",
      atLeast: 2.8,
      reason: "measured side by side, the 110 ms bound (310 ms theirs on a quiet machine) as a ratio that load on a shared machine cannot move",
    },
    {
      id: "coldstart.vsOfficial.cpu",
      label: "cold start, CPU time above bare node: official / ours",
      numerator: "coldstart.official",
      denominator: "coldstart.ours",
      field: "cpuAboveMs",
    },
    {
      id: "coldstart.legacy.cost",
      label: "cold start above bare node: ours pinned to 2025-11-25 / ours at 2026-07-28 (the lazy 2025 validators, paid only then)",
      numerator: "coldstart.ours2025",
      denominator: "coldstart.ours",
    },
  );
  list.push(
    {
      id: "coldstart.http.vsBare",
      label: "cold start over HTTP, spawn → first verified tools/call: ours / bare node:http server started the same way",
      numerator: "coldstart.http.ours",
      denominator: "coldstart.http.bare",
      atMost: 1.6,
      reason: "a serverless instance or a restarted pod answers its first call after this: the SDK may add at most 60% to what node itself takes (issue 26)",
    },
    {
      id: "coldstart.http.vsBare.cpu",
      label: "cold start over HTTP, CPU time of the server process: ours / bare node:http server",
      numerator: "coldstart.http.ours",
      denominator: "coldstart.http.bare",
      field: "cpuMs",
    },
    {
      id: "coldstart.http.tmcp",
      label: "cold start over HTTP, spawn → first verified tools/call: tmcp / ours",
      numerator: "coldstart.http.tmcp",
      denominator: "coldstart.http.ours",
    },
  );
  list.push(
    {
      id: "rss.sustained",
      label: `peak RSS, ${RSS_CALLS.toLocaleString("en-US")} in-process MRTR calls each (c=16): official 2026 path / ours`,
      numerator: "rss.mrtr.official2026",
      denominator: "rss.mrtr.ours",
      field: "maxRssBytes",
    },
    {
      id: "rss.sustained.growth",
      label: `RSS growth above the set-up process, same ${RSS_CALLS.toLocaleString("en-US")} calls: official 2026 path / ours`,
      numerator: "rss.mrtr.official2026",
      denominator: "rss.mrtr.ours",
      field: "rssGrowthBytes",
      atLeast: 5,
      reason: "what the calls cost: Node and the loaded modules are most of either peak, so the peak hid the 5× (redefined in issue 13)",
    },
    {
      id: "rss.sustained.throughput",
      label: `throughput over those ${RSS_CALLS.toLocaleString("en-US")} MRTR calls: ours / official 2026 path`,
      numerator: "rss.mrtr.ours",
      denominator: "rss.mrtr.official2026",
    },
    { id: "seal.node", label: "seal + verify, 300 B: ours (node:crypto) / official HMAC", numerator: "seal.ours.node", denominator: "seal.official" },
    { id: "seal.noble", label: "seal + verify, 300 B: ours (@noble/ciphers) / official HMAC", numerator: "seal.ours.noble", denominator: "seal.official" },
    {
      id: "seal.node.vsFloor",
      label: "seal + verify, 300 B: bare node:crypto AES-256-GCM (floor) / ours (node:crypto): how much slower than the floor ours is",
      numerator: "seal.floor",
      denominator: "seal.ours.node",
      atMost: 2.5,
      reason:
        "re-set from 1.35× by the profile in PROFILES.md (issue 26): beyond the cipher, a token's own work (envelope JSON both ways, base64url both ways, binding checks, the async API's promises) is about as much again",
    },
    {
      id: "seal.floor.official",
      label: "seal + verify, 300 B: bare node:crypto AES-256-GCM seal + open (floor) / official HMAC: the most any node:crypto AES-GCM token can reach",
      numerator: "seal.floor",
      denominator: "seal.official",
    },
    {
      id: "seal.node.floor",
      label: "seal + verify, 300 B: ours (node:crypto) / bare node:crypto AES-256-GCM (floor)",
      numerator: "seal.ours.node",
      denominator: "seal.floor",
    },
    {
      id: "seal.node.cpu",
      label: "seal + verify, 300 B, process CPU per op: official HMAC / ours (node:crypto)",
      numerator: "seal.official",
      denominator: "seal.ours.node",
      field: "cpuMicrosPerOp",
    },
    {
      id: "seal.noble.cpu",
      label: "seal + verify, 300 B, process CPU per op: official HMAC / ours (@noble/ciphers)",
      numerator: "seal.official",
      denominator: "seal.ours.noble",
      field: "cpuMicrosPerOp",
    },
    { id: "validate", label: "validate tools/call request + result: ours (AJV) / official (zod)", numerator: "validate.ours", denominator: "validate.official" },
  );
  for (const c of CONCURRENCY) {
    list.push(
      {
        id: `rss.mrtr.vs2026.c${c}`,
        label: `peak RSS, in-process MRTR, c=${c}: official 2026 path / ours`,
        numerator: `inproc.mrtr.official2026.c${c}`,
        denominator: `inproc.mrtr.ours.c${c}`,
        field: "maxRssBytes",
      },
      {
        id: `rss.mrtr.vs2025.c${c}`,
        label: `peak RSS, in-process MRTR, c=${c}: official 2025 in-memory / ours`,
        numerator: `inproc.mrtr.official2025.c${c}`,
        denominator: `inproc.mrtr.ours.c${c}`,
        field: "maxRssBytes",
      },
    );
  }
  return list;
}

/**
 * Absolute budgets on a single workload: its median must stay `below` (or
 * `atMost`) a bound, or a `flag` it reports must have stayed `false` in every
 * repetition.
 */
export function limits() {
  return [
    {
      id: "pending.ours.limit",
      label: "heap growth of our server with 10,000 pending exchanges",
      workload: "pending.ours",
      below: 1024 * 1024,
      unit: "bytes",
      reason: "a stateless server keeps nothing per exchange: abandoned rounds must cost nothing",
    },
    {
      id: "listeners.web.ours.limit",
      label: "heap per idle subscriptions/listen stream over the web-standard HTTP handler (10,000 streams)",
      workload: "listeners.web.ours",
      field: "perItem",
      atMost: LISTEN_STREAM_BYTES,
      unit: "bytes",
      reason: LISTEN_STREAM_REASON,
    },
    {
      id: "coldstart.ours.limit",
      label: "cold start of our server + client, one in-process call, above bare node",
      workload: "coldstart.ours",
      atMost: 110,
      unit: "ms",
      reason:
        "a CLI or a serverless function pays this on every start; ~90 ms before 2025 support, which must not push it past 110 ms (absolute: read it on a quiet machine)",
    },
    // The 2025-11-25 tables are a large module a 2026-only program never needs: they load on a 2025 client's first message.
    {
      id: "coldstart.ours.lazy2025",
      label: "2026-only cold start leaves the 2025 validators unloaded",
      workload: "coldstart.ours",
      flag: "tables2025Loaded",
      reason: "the 2025 tables are a large module a 2026-only program never needs",
    },
  ];
}

/**
 * The browser client bundle budget, min+gz bytes: every chunk a browser app
 * loads before its first call, each gzipped -9 and summed, when it does
 * `import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client"`
 * and connects to a 2026-07-28 server (the import, then `Client.connect`;
 * bench/bundle-size.mjs records the chunks a real run loads; test/bundle/bundle.test.ts
 * holds every build to it). The official client is some 88 KB by the same
 * recipe, and a browser app should not pay for a server it does not run.
 */
export const BUNDLE_BUDGET_BYTES = 15_000;

/**
 * What the first MRTR call loads besides, min+gz bytes: the answer checker,
 * imported on the first callback answer (each answer is checked against its
 * request before it is sent), and the small chunk of guards it shares.
 */
export const ANSWER_CHECK_BUDGET_BYTES = 3_000;
