// RESULTS.md: the budgets first, then one table per workload group.
import { formatBytes, formatFigure, formatMicros, formatMillis, formatRate, formatRatio } from "./format.mjs";

/** Report sections, in print order: group prefix → heading and what the rows measure. */
export const SECTIONS = [
  {
    group: "inproc.plain",
    title: "In-process tool calls, plain (2026-07-28)",
    note: "One `tools/call` of an echo tool through each SDK's client and server in one process.",
  },
  {
    group: "inproc.mrtr",
    title: "In-process tool calls, full MRTR (2026-07-28)",
    note: "One call = first round → `input_required` (one elicitation, sealed `requestState`) → the client answers → retry → complete. The official 2025 row runs the same tool through their legacy shim, which turns the round into a server-to-client `elicitation/create`.",
  },
  {
    group: "legacy.inproc.plain",
    title: "2025 path in process, plain (2025-11-25)",
    note: 'A client pinned to 2025-11-25 on one in-memory session: ours is `Client.connect(mcpServer, { mode: "2025-11-25" })`, theirs their linked `InMemoryTransport` pair with the default (2025) handshake. One `tools/call` of the echo tool.',
  },
  {
    group: "legacy.inproc.elicit",
    title: "2025 path in process, one elicitation per call",
    note: "One call asks one form question over the session mid-call (a real `elicitation/create` the client answers) and then completes. Ours: a tool whose `needs` declare `elicit(...)`; theirs: a tool that awaits `ctx.mcpReq.elicitInput(...)`. Two requests per call (the call and the server's question).",
  },
  {
    group: "http.plain",
    title: "Streamable HTTP on 127.0.0.1, plain",
    note: "Every server runs in a process of its own pinned to one CPU (`taskset`), the load client (the worker) pinned to the other; **server CPU per call** is that server process's user + system time over the timed window divided by the completed calls, the figure the budgets judge (steady to a few percent where calls/s swing by tens of percent on a shared machine), with the load client kept awake, and beside it with the client asleep between answers (see Method). The client CPU column is the worker's, over the asleep window. One load client drives every server (`lib/raw-client.mjs`: raw keep-alive TCP sockets, one connection per virtual client and one request in flight on each, request bytes built once per tool around the id, every answer parsed, JSON or SSE, and checked: id and text). Each call is what a 2026-07-28 client sends (the `_meta` envelope, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), alternating two tools with validated input schemas: `echo` (a string) and `add` (two numbers). The floor is sent the same calls and answers them with the bytes ours answers (`resultType`, `_meta.serverInfo`), so the ratio is the SDK's work and nothing else; the 2025 rows have a floor of their own, sent their calls. Beside each floor runs the same server with our checks (the header rules, the request, the arguments and the result validated: a reference), which splits ours / floor into what the checks cost any server and what the SDK's own structure adds. The client must cost well under the floor server, or it sets the pace and the floor idles between calls: the report gives its CPU per op and the share of its core it used, and a row whose client used more than 80 % of its core is **client-bound** and its server-CPU ratios are not judged. The p50 latency is the client's, over the timed window. The global-fetch row (undici, about 1 ms per loopback request) is for reference. tmcp gets its fastest bridge to `node:http` (`@hono/node-server`, which builds the `Request` lazily); it answers a POST with an SSE stream, its only mode.",
  },
  {
    group: "legacy.http.stateless",
    title: "2025 path over Streamable HTTP without a session, plain",
    note: 'A 2025-11-25 client of a stateless server: each `tools/call` without `initialize` or `Mcp-Session-Id`, with `MCP-Protocol-Version: 2025-11-25`, the same two tools alternated; the same load client as the rows above. Ours: `serveHttp` over an `McpServer` with `legacy: "stateless"`; theirs: `createMcpHandler` with its default `legacy: "stateless"` (a fresh server and transport per request, their documented stateless idiom); tmcp: its `HttpTransport` without a session header.',
  },
  {
    group: "http.mrtr",
    title: "Streamable HTTP on 127.0.0.1, full MRTR",
    note: "Two HTTP requests per call (the first answers `input_required` with a sealed `requestState`, the second echoes it with the answer); each server in a process of its own, driven by the same raw load client as the plain rows, which checks both rounds.",
  },
  {
    group: "legacy.http.plain",
    title: "2025 path over Streamable HTTP with sessions, plain",
    note: "`initialize` opens a session (`Mcp-Session-Id`), every later request carries it; the one load client of the plain HTTP rows drives every server, each in a process of its own (server CPU per call is the figure). Ours: `serveHttp`; theirs: one `WebStandardStreamableHTTPServerTransport` with `sessionIdGenerator` and its own McpServer per session, routed by `Mcp-Session-Id` behind `node:http` (their documented stateful wiring), measured twice: with their default SSE answers, and with `enableJsonResponse` (their fastest mode); tmcp: its `HttpTransport` sessions, which speak up to 2025-06-18. Against the JSON mode no server here can lead by more than the bare echo does (the ceiling row in the ratios).",
  },
  {
    group: "legacy.http.elicit",
    title: "2025 path over Streamable HTTP with sessions, one elicitation per call",
    note: "The server's `elicitation/create` goes out while the call is open (ours on the call's SSE response stream; theirs on the call's stream in SSE mode, on the session's GET stream in JSON-response mode); the client POSTs its answer; the call then completes. Two HTTP requests per call besides the standing GET stream. Each SDK's own client drives these rows (ours `Client.connect(…, { mode: \"2025-11-25\" })`, theirs with its default handshake), both on the keep-alive `node:http` fetch; each server in a process of its own.",
  },
  {
    group: "rss",
    title: "Peak RSS, the same MRTR work for both",
    note: "A fixed number of in-process MRTR calls at c=16 for both SDKs (no warm-up, bounded at 90 s), each repetition in a fresh process; peak RSS is the worker's (client, server and runtime), and the last column is that peak minus the RSS once the workload was set up, before its first call (what the calls themselves cost, without Node and the loaded modules). A count rather than a time window: in a window, the faster SDK does tens of times more calls and allocates that much more garbage, so the figure would penalise speed rather than measure memory per unit of work.",
  },
  {
    group: "seal",
    title: "Seal + verify of a 300-byte state",
    note: "One mint and one verify of a state whose compact JSON is 300 bytes. Ours encrypts (AES-256-GCM, HKDF-derived key); theirs signs only (HMAC-SHA256, WebCrypto). The floor row is node:crypto sealing and opening the same bytes with nothing else: no AES-GCM token on node:crypto can beat it.",
  },
  { group: "validate", title: "Validation of a `tools/call` request and its result", note: "One operation validates the request and the `CallToolResult`." },
  {
    group: "sessions",
    title: "Server heap per idle 2025 session, 10,000 sessions",
    note: "Each session is opened through the server's web-standard handler in process with `Request` objects (`initialize`, then `notifications/initialized`) and then left idle; heap measured after two forced collections before and after (node --expose-gc), with warm-up sessions opened first. Each worker then makes one call on the last session to prove the sessions are live. Ours: `createHttpHandler`; official v1 (`@modelcontextprotocol/sdk` 1.32) the stateful wiring its docs show, a `WebStandardStreamableHTTPServerTransport` and an `McpServer` per session; tmcp: one `HttpTransport` with its default in-memory session managers.",
  },
  {
    group: "coldstart",
    title: "Cold start: a fresh node that imports server and client, connects in process and finishes one call",
    note: "Each repetition spawns bare `node -e \"\"` and the cold-start script alternately (both under a 5-line CommonJS preload that reports the process's CPU time on exit) and reports the median of the paired differences (whole start minus bare node), so load on the machine hits both. Ours: `Client.connect(mcpServer)` with the client's default mode; theirs: their server and client over `InMemoryTransport` (their in-process route); each script closes its client and exits by itself. A separate untimed run under a resolve hook (`workloads/cold-start/record-imports.mjs`) lists the ES modules loaded: the 2025-11-25 validators (`validate/tables-2025.js`) must be absent from a 2026-only run and present once a 2025 session opens.",
  },
  {
    group: "coldstart.http",
    title: "Cold start over HTTP: spawn → the first verified tools/call",
    note: "Each run spawns a node that serves one echo tool on 127.0.0.1 and prints its URL; the bench then sends one 2026-07-28 `tools/call` on a fresh connection, checks the answer, and stops the process with SIGTERM. The figure is the wall time from spawn to the checked answer (median of the runs of a repetition, after one untimed run that warms the page cache); the CPU column is the server process's own user + system time over its whole life (it reports `process.cpuUsage()` on exit). The floor is a bare `node:http` JSON-RPC echo started the same way.",
  },
  {
    group: "pending",
    title: "Server heap growth, 10,000 pending exchanges",
    note: "First round answered, retry never sent; heap measured after two forced collections before and after (node --expose-gc), with warm-up exchanges already in the baseline. Each worker then finishes the last exchange to prove it was resumable.",
  },
  {
    group: "listeners",
    title: "Server heap growth, 10,000 idle subscriptions/listen streams",
    note: "Each stream is opened (acknowledged) in process, the way a connection-holding transport opens it (a request, an AbortController, a notification sink), then left idle; heap measured after two forced collections before and after (node --expose-gc), with warm-up streams opened and closed first. Each worker then registers a tool, checks the change reached every stream, and cancels them all. The floor row holds the same requests and contexts in a handler that keeps nothing: the difference is what the server itself keeps per stream. The two web rows open the same streams through each SDK's web-standard handler with `Request` objects (POST, SSE response, acknowledgement read), default SSE keep-alive on both; their change is published with `handler.notify.toolsChanged()`. The web floor row opens the same streams through a handler that answers the acknowledgement and keeps only the stream's controller and a listener on the request's abort signal: what the harness costs any web-standard handler.",
  },
];

/**
 * @param {{ environment: object, rows: object[], ratios: object[], budgets: object[] }} summary
 * @returns {string}
 */
export function renderMarkdown({ environment: env, rows, ratios, budgets }) {
  const lines = [];
  lines.push("# Benchmark results", "");
  lines.push(`Generated by \`npm run bench\` (bench/run.mjs) on ${env.date}; rerun it rather than editing this file.`);
  if (env.profile === "smoke") lines.push("", "**Smoke profile: tiny counts that only prove the harness runs. These figures mean nothing.**");
  lines.push("", "![Benchmark chart](chart.svg)", "");
  lines.push(
    "Their requestState codec against ours through their own seam: [RESULTS-official-codec.md](RESULTS-official-codec.md) (`node bench/official-codec.mjs`).",
    "",
    "Where the server's CPU goes, and why each re-set budget is where it is: [PROFILES.md](PROFILES.md) (`node bench/profile.mjs`).",
    "",
  );
  lines.push("## Method", "");
  lines.push(
    `- Node ${env.node}, ${env.platform}, ${env.cpu}; load average at start ${env.loadAverageAtStart} (a shared machine: read the ratios, not the absolute figures); whole run ${env.durationSeconds ?? "?"} s.`,
    `- Every figure is the median of ${env.reps} repetition(s). Each repetition is a fresh worker process: a warm-up until throughput stops rising (slices of ${env.warmup.sliceMs} ms until ${env.warmup.plateauSlices} in a row fail to beat the best slice by 3%; at least ${env.warmup.minMs} ms, at most ${env.warmup.maxMs} ms), then a ${env.windowMs} ms timed window (also capped at ${env.maxOps.toLocaleString("en-US")} operations); the peak-RSS pair instead runs a fixed number of calls each (see its section); the pending-exchange figure uses ${env.pendingCount.toLocaleString("en-US")} exchanges after ${env.pendingWarmup.toLocaleString("en-US")} warm-up ones.`,
    '- Why a warm-up to a plateau rather than a fixed one: throughput keeps rising for seconds while V8 compiles the hot paths (on the reference machine ~3 s for our HTTP path and the echo, ~7 s for the official SDK\'s), so a short fixed warm-up timed each contender part-way through its own compilation. The warm-up column gives the median time each took to level off; "cap" counts repetitions that hit the maximum still rising.',
    "- Repetitions are interleaved: repetition *i* of every workload runs before repetition *i + 1* of any, and compared workloads run back to back. A ratio is the median over repetitions of (numerator *i* / denominator *i*).",
    `- A server and the floor it is judged against share one window (the rows marked *interleaved*): one worker sets up each, warms them to their plateaus in turns (a slice of each, so none idles while the others warm up), runs one untimed slice of each, then times ${env.interleaveSliceMs ?? "?"} ms slices of each in turn (who goes first rotating) until each has had ${env.windowMs} ms. On a shared machine a disturbance lasts seconds: timed one after the other, one side could land in a quiet spell and the other in a busy one; in turns, both see the same spells. Such rows share the worker, so their peak RSS is the set's.`,
    `- Isolation: ${env.isolation}. Peak RSS is \`process.resourceUsage().maxRSS\` of the worker, which holds client and server: the whole workload.`,
    "- Over HTTP each server runs in a process of its own pinned to its own CPU with `taskset`, and the worker (the load client) is pinned to the other; the budgets read the **server process's CPU time per completed call** (user + system over the timed window, read by the server process itself over IPC at both ends of the window).",
    "- Each such window is timed twice: first with the load client asleep whenever it waits (as any event loop does), then again with it kept awake (a `setImmediate` loop, on its own core). On loopback, a server's write that finds its client asleep pays for waking it, in the server's own system time; the slower the server, the more often its client has fallen asleep, so that cost inflates the ratios of a slower server, and a server on a network never pays it (bench/PROFILES.md). The server-CPU ratios and budgets are judged on the awake window; the asleep figure is printed beside each. Client CPU, its share of a core (the client-bound test) and the p50 latency come from the asleep window, where the spin does not count.",
    "- CPU per op is the worker's process CPU time (user + system, every thread) over the timed window divided by the operations: steadier than wall-clock on a shared machine, and it counts work the official codec hands to the Web Crypto thread pool.",
    "- Every worker checks its first result (right text, state round-tripped) before timing, and must exit on its own after closing its servers and clients.",
  );
  for (const update of env.updates ?? []) {
    lines.push(
      `- Measured again on ${update.date} (\`--only … --update\`, load average at start ${update.loadAverageAtStart}), every ratio and budget judged again: ${update.rows.map((id) => `\`${id}\``).join(", ")}.`,
    );
  }
  lines.push("");

  lines.push("## Budgets (bench/budgets.mjs)", "");
  lines.push("| budget | target | measured | status | why this target |", "|---|---|---|---|---|");
  for (const b of budgets) {
    const figure =
      b.unit === "bytes" ? formatBytes(b.figure) : b.unit === "ms" ? formatMillis(b.figure) : b.unit === "flag" ? (b.figure ? "yes" : "no") : formatRatio(b.figure);
    lines.push(
      `| ${b.label} | ${b.budget.replace(/< (\d+) bytes/, (_, n) => `< ${formatBytes(Number(n))}`)} | ${b.status === "unavailable" ? "–" : `${figure}${asleep(b.asleepFigure, b.asleepOnly)}`} | ${b.status} | ${b.reason ?? ""} |`,
    );
  }
  lines.push("");

  for (const section of SECTIONS) {
    const sectionRows = rows.filter((row) => row.group === section.group);
    if (sectionRows.length === 0) continue;
    lines.push(`## ${section.title}`, "", section.note, "");
    if (section.group === "coldstart") {
      lines.push(...coldStartTable(sectionRows, env), "");
      continue;
    }
    if (section.group === "coldstart.http") {
      lines.push("| workload | spawn → first verified call (median) | min … max | server CPU time |", "|---|---|---|---|");
      for (const row of sectionRows) {
        if (row.error) lines.push(`| ${row.label} | failed: ${escapeCell(row.error.split("\n")[0])} | | |`);
        else
          lines.push(`| ${row.label} | ${formatMillis(row.median)} | ${formatMillis(row.min)} … ${formatMillis(row.max)} | ${formatMillis(row.medianStartCpu)} |`);
      }
      lines.push("");
      continue;
    }
    const micro = section.group === "seal" || section.group === "validate";
    const bytes = section.group === "pending" || section.group === "listeners" || section.group === "sessions";
    const served = sectionRows.some((row) => row.medianServerCpu !== undefined);
    const header = bytes
      ? ["workload", "heap growth (median)", { listeners: "per stream", sessions: "per session" }[section.group] ?? "per exchange", "min … max", "peak RSS"]
      : [
          "workload",
          "c",
          ...(served ? ["server CPU per call, client awake", "client asleep"] : []),
          `${sectionRows[0].unit} (median)`,
          micro ? "per op" : "requests/s",
          served ? "client CPU per op" : "CPU per op",
          ...(served ? ["client's share of its core", "p50 latency"] : []),
          "min … max",
          "peak RSS",
          section.group === "rss" ? "RSS growth above set-up" : "warm-up",
        ];
    lines.push(`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`);
    for (const row of sectionRows) {
      if (row.error) {
        lines.push(
          `| ${row.label} | ${bytes ? "" : `${row.concurrency ?? ""} | `}failed: ${escapeCell(row.error.split("\n")[0])} |${" |".repeat(header.length - (bytes ? 2 : 3))}`,
        );
        continue;
      }
      const range = bytes ? `${formatBytes(row.min)} … ${formatBytes(row.max)}` : `${formatRate(row.min)} … ${formatRate(row.max)}`;
      if (bytes) {
        lines.push(`| ${row.label} | ${formatBytes(row.median)} | ${formatBytes(row.median / env.pendingCount)} | ${range} | ${formatBytes(row.medianRss)} |`);
      } else {
        const extra = micro ? formatMicros(row.median) : formatRate(row.median * (row.roundTrips ?? 1));
        const cpu = row.medianCpu === undefined ? "–" : formatMicros(1e6 / row.medianCpu);
        const last = section.group === "rss" ? formatBytes(row.medianRssGrowth) : formatWarmup(row.warmup);
        const micros = (perOp) => (perOp === undefined ? "–" : formatMicros(1e6 / perOp));
        const server = served ? ` ${micros(row.medianAwakeServerCpu)} | ${micros(row.medianServerCpu)} |` : "";
        const client = served
          ? ` ${row.medianClientShare === undefined ? "–" : `${Math.round(row.medianClientShare * 100)} %${row.clientBound ? " **client-bound: not judged**" : ""}`} | ${row.medianLatencyP50 === undefined ? "–" : `${(row.medianLatencyP50 * 1000).toFixed(0)} µs`} |`
          : "";
        lines.push(
          `| ${row.label}${row.interleaved ? " *(interleaved)*" : ""} | ${row.concurrency ?? 1} |${server} ${formatFigure(row.median, row.unit)} | ${extra} | ${cpu} |${client} ${range} | ${formatBytes(row.medianRss)} | ${last} |`,
        );
      }
    }
    lines.push("");
  }

  lines.push("## Ratios (paired, same run)", "");
  lines.push("| comparison | ratio | budget |", "|---|---|---|");
  for (const r of ratios) {
    const figure = r.unavailable ? `– (${r.unavailable})` : `${formatRatio(r.ratio)}${asleep(r.asleepRatio, r.asleepOnly)}`;
    const budget = r.atLeast !== undefined ? `≥ ${r.atLeast}×` : r.atMost !== undefined ? `≤ ${r.atMost}×` : "–";
    lines.push(`| ${r.label} | ${figure} | ${budget} |`);
  }
  lines.push("");
  return `${lines.join("\n")}\n`;
}

/** The cold-start rows: time above bare node, the whole start, bare node alone, modules loaded, the 2025 validators. */
function coldStartTable(rows, env) {
  const header = [
    "workload",
    "above bare node (median)",
    "min … max",
    "CPU time above bare node",
    "whole start",
    "bare node",
    "ES modules loaded",
    "2025 validators loaded",
  ];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const row of rows) {
    if (row.error) {
      lines.push(`| ${row.label} | failed: ${escapeCell(row.error.split("\n")[0])} |${" |".repeat(header.length - 2)}`);
      continue;
    }
    const loaded = row.flags === undefined ? "–" : row.flags.tables2025Loaded ? "yes" : "no";
    lines.push(
      `| ${row.label} | ${formatMillis(row.median)} | ${formatMillis(row.min)} … ${formatMillis(row.max)} | ${formatMillis(row.medianCpuAboveMs)} | ${formatMillis(row.medianStartMs)} | ${formatMillis(row.medianBareMs)} | ${row.modulesLoaded} | ${loaded} |`,
    );
  }
  lines.push(
    "",
    `${env.coldStartSpawns} timed (bare, cold start) pairs per repetition. "Above bare node" is wall clock, the figure the budget reads; the CPU column is user + system time every thread of the process used (it reports its own \`process.cpuUsage()\` on exit), which waiting for a core on a loaded machine does not stretch.`,
  );
  return lines;
}

/**
 * A server-CPU ratio's figure with the load client asleep between answers, beside the judged one (client
 * awake); or, for rows measured before the awake window existed, a note that the judged figure is the asleep one.
 */
function asleep(ratio, asleepOnly) {
  if (asleepOnly) return " (client asleep: no awake window)";
  return ratio === undefined ? "" : ` (client asleep: ${formatRatio(ratio)})`;
}

/** "3.2 s", or "10.0 s (cap ×2)" when repetitions hit the maximum still rising. */
function formatWarmup(warmup) {
  if (!warmup) return "–";
  const seconds = `${(warmup.medianMs / 1000).toFixed(1)} s`;
  return warmup.capped > 0 ? `${seconds} (cap ×${warmup.capped})` : seconds;
}

function escapeCell(text) {
  return text.replace(/\|/g, "\\|").slice(0, 160);
}
