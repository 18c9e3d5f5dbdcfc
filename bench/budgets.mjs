// The comparisons the report computes, and the performance budgets attached
// to them: each target with the one-line reason it is what it is. This file
// is where the budgets live; RESULTS.md cites it.
import { CONCURRENCY, RSS_CALLS } from "./catalog.mjs";

/**
 * @typedef {object} Comparison
 * @property {string} id
 * @property {string} label
 * @property {string} numerator workload id
 * @property {string} denominator workload id
 * @property {"value"|"maxRssBytes"|"rssGrowthBytes"|"cpuMicrosPerOp"|"cpuAboveMs"} [field] what is compared; `value` by default
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
  for (const c of CONCURRENCY) {
    list.push(
      {
        id: `http.plain.vsOfficial.c${c}`,
        label: `HTTP plain, c=${c}: ours / official`,
        numerator: `http.plain.ours.c${c}`,
        denominator: `http.plain.official.c${c}`,
        atLeast: 4,
        reason: "over a real socket the wire is shared: the SDK's own cost per request is what we cut",
      },
      {
        id: `http.mrtr.vsOfficial.c${c}`,
        label: `HTTP MRTR, c=${c}: ours / official`,
        numerator: `http.mrtr.ours.c${c}`,
        denominator: `http.mrtr.official.c${c}`,
        atLeast: 4,
        reason: "the same lead for multi-round calls, sealing included",
      },
      {
        id: `http.plain.vsEcho.c${c}`,
        label: `HTTP plain, c=${c}: ours / bare node:http echo (requests/s)`,
        numerator: `http.plain.ours.c${c}`,
        denominator: `http.echo.c${c}`,
        atLeast: 0.6,
        reason: "a bare node:http JSON echo is the ceiling of any server here: the protocol may take at most 40% of it",
      },
      {
        id: `http.mrtr.vsEcho.c${c}`,
        label: `HTTP MRTR, c=${c}: ours (2 requests per call) / bare node:http echo (requests/s)`,
        numerator: `http.mrtr.ours.c${c}`,
        denominator: `http.echo.c${c}`,
        numeratorScale: 2,
        atLeast: 0.65,
        reason: "an MRTR request seals or verifies once; set once the floor was known (issue 13): 65% of the bare echo",
      },
      {
        id: `http.plain.officialVsEcho.c${c}`,
        label: `HTTP plain, c=${c}: official / bare node:http echo (reference)`,
        numerator: `http.plain.official.c${c}`,
        denominator: `http.echo.c${c}`,
      },
    );
  }
  for (const c of CONCURRENCY) {
    for (const kind of ["plain", "elicit"]) {
      const what = kind === "plain" ? "plain" : "one elicitation per call";
      list.push(
        {
          id: `legacy.inproc.${kind}.c${c}`,
          label: `2025 path in process, ${what}, c=${c}: ours / official`,
          numerator: `legacy.inproc.${kind}.ours.c${c}`,
          denominator: `legacy.inproc.${kind}.official.c${c}`,
          atLeast: 1.5,
          reason: "their InMemoryTransport is the route their 2025 sessions were built for, so 1.5× (not the 2026 path's 18×)",
        },
        {
          id: `legacy.http.${kind}.vsDefault.c${c}`,
          label: `2025 path over Streamable HTTP (sessions), ${what}, c=${c}: ours / official with its default SSE answers`,
          numerator: `legacy.http.${kind}.ours.c${c}`,
          denominator: `legacy.http.${kind}.officialSse.c${c}`,
          atLeast: 4,
          reason: "a 2025 client over HTTP gets the same 4× lead as a 2026 one, against their session wiring as documented (SSE answers)",
        },
        {
          id: `legacy.http.${kind}.c${c}`,
          label: `2025 path over Streamable HTTP (sessions), ${what}, c=${c}: ours / official in JSON-answer mode (their fastest)`,
          numerator: `legacy.http.${kind}.ours.c${c}`,
          denominator: `legacy.http.${kind}.official.c${c}`,
        },
      );
    }
  }
  for (const c of CONCURRENCY) {
    list.push(
      {
        id: `legacy.http.plain.vsEcho.c${c}`,
        label: `2025 path over Streamable HTTP (sessions), plain, c=${c}: ours / bare node:http echo`,
        numerator: `legacy.http.plain.ours.c${c}`,
        denominator: `http.echo.c${c}`,
        atLeast: 0.6,
        reason: "a session costs a table lookup, not a protocol: the 2025 path keeps the 2026 path's share of the ceiling",
      },
      {
        id: `legacy.http.plain.ceiling.c${c}`,
        label: `2025 path over HTTP, c=${c}: bare node:http echo / official in JSON-answer mode: the most any server here could lead that mode by`,
        numerator: `http.echo.c${c}`,
        denominator: `legacy.http.plain.official.c${c}`,
      },
    );
  }
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
      atMost: 1.35,
      reason:
        "no AES-GCM token on node:crypto beats the bare cipher; ours may add at most 35% for the envelope, binding and encoding (replaces the unreachable ≥ 7× their HMAC)",
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
      {
        id: `rss.http.mrtr.c${c}`,
        label: `peak RSS, HTTP MRTR, c=${c}: official / ours`,
        numerator: `http.mrtr.official.c${c}`,
        denominator: `http.mrtr.ours.c${c}`,
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
 * The browser client bundle budget, min+gz bytes of the entry chunk a browser
 * loads to reach a 2026-07-28 server and finish an MRTR call
 * (bench/bundle-size.mjs; test/bundle/bundle.test.ts holds every build to
 * it): the official client is some 88 KB by the same recipe, and a browser
 * app should not pay for a server it does not run.
 */
export const BUNDLE_BUDGET_BYTES = 15_000;

/**
 * What the same call loads besides the entry chunk, min+gz bytes: the answer
 * checker, imported on the first callback answer (each answer is checked
 * against its request before it is sent), and the two small chunks holding
 * the error classes it and the lazy task handle build.
 */
export const ANSWER_CHECK_BUDGET_BYTES = 3_000;
