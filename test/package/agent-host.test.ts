// Issue 35's closing proof: a scratch agent host (agent-host/host.mjs, written
// from README.md and docs/client.md alone), installed from the packed tarball
// and copied in unedited, handles a silent server, a cut connection, a
// cancelled long call and a failing callback on both protocol generations,
// with the same code. Each case runs it with `node`, reads its one-line
// outcome and exit code, and checks what the server saw.
//
// The servers: agent-host/server.mjs (from the tarball's mcp-roundtrip/server,
// serving 2026-07-28 and 2025 sessions on one endpoint, so the host pins 2025
// with its --mode flag, Client.connect's `mode`), and the reference 2025-era
// @modelcontextprotocol/server-everything, which the host reaches in its
// default mode ("auto") and falls back to a 2025 session by itself.
//
// The cases, on each generation: a silent stdio server and a silent HTTP
// endpoint (connect: RequestTimeout naming initialize), a tool that never
// answers (RequestTimeout naming tools/call; the server saw the cancel), a
// long call stopped with Ctrl-C (cancelled; the server saw the cancel), a
// connection cut mid-call by a TCP proxy (2025: resumed with Last-Event-ID;
// 2026-07-28: a retryable ConnectionLost), a stdio server dying mid-call
// (ConnectionLost), and onElicit throwing (InputRequestFailed; answering
// instead runs the tool). Against server-everything: Ctrl-C over stdio and
// HTTP, a timeout, a cut stream resumed, and onElicit throwing.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, it } from "vitest";
import { freePort, repoRoot, startProcess, stopProcess } from "../interop/peers.js";
import { createScratchProject, type ScratchProject } from "../support/scratch-project.js";
import { tcpProxy } from "../support/tcp-proxy.js";

/** How long a test waits for the server's log to show what it saw: a loaded machine writes it late (expect.poll waits 1 s by default). */
const SERVER_SAW = { timeout: 10_000 };
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const EVERYTHING = join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const TAP = join(repoRoot, "test/interop/fixtures/tap.mjs");
const LONG = "trigger-long-running-operation";

/** What one run of the host printed, and how it exited. */
interface HostRun {
  /** The `outcome:` line, without the prefix. */
  outcome: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

let project: ScratchProject;
/** A log file name of its own for each server and case. */
let logs = 0;
const newLog = () => join(project.dir, `server-${++logs}.log`);
/** The JSON lines a server.mjs wrote to `log`. */
const seen = (log: string): Record<string, unknown>[] => {
  try {
    return readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return [];
  }
};

/**
 * Runs the host with `args` from the scratch project. With `interruptOn`, it
 * gets SIGINT (Ctrl-C) the moment its stdout matches.
 */
function runHost(args: string[], interruptOn?: RegExp): Promise<HostRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["host.mjs", ...args], { cwd: project.dir, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    // A host that never ends fails its case with what it printed, not the whole file on vitest's timeout.
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (interruptOn?.test(stdout) && !interrupted) {
        interrupted = true;
        child.kill("SIGINT");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      const outcome = /^outcome: (.*)$/m.exec(stdout)?.[1] ?? `(none; stderr: ${stderr})`;
      resolve({ outcome, code, stdout, stderr });
    });
  });
}

/** Starts server.mjs (from the scratch project) over HTTP; resolves with its URL once it prints it. */
function startHttpServer(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    // Its stderr (what it logs of calls the host made fail) goes into the failure message only.
    const child = spawn(process.execPath, ["server.mjs", "--http", ...args], { cwd: project.dir, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = /^(http:\/\/\S+)$/m.exec(output)?.[1];
      if (url !== undefined) resolve({ child, url });
    });
    child.once("exit", (code) => reject(new Error(`server.mjs ${args.join(" ")} exited (code ${code}) before printing its URL:\n${output}`)));
  });
}

/** Starts server-everything over Streamable HTTP (it takes a PORT, not 0); resolves once it says it listens. */
async function startEverything(): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = await startProcess(process.execPath, [EVERYTHING, "streamableHttp"], { PORT: String(port) }, /listening on port/);
  return { child, port };
}

/** A proxy that cuts the first connection whose server bytes carry a progress notification, and no other. */
function cuttingProxy(port: number) {
  let cuts = 0;
  return tcpProxy(port, { cutWhen: (fromServer) => cuts === 0 && fromServer.includes("notifications/progress") && ++cuts === 1 });
}
const portOf = (url: string) => Number(new URL(url).port);
const viaProxy = (proxy: { port: number }) => `http://127.0.0.1:${proxy.port}/mcp`;

let ours: { child: ChildProcess; url: string; log: string };
let silentHttp: { child: ChildProcess; url: string; log: string };
let everything: { child: ChildProcess; port: number };

beforeAll(async () => {
  project = createScratchProject();
  // The host and the server as they are in the repo, byte for byte: the host is what a newcomer wrote.
  copyFileSync(here("agent-host/host.mjs"), join(project.dir, "host.mjs"));
  copyFileSync(here("agent-host/server.mjs"), join(project.dir, "server.mjs"));
  const oursLog = newLog();
  const silentLog = newLog();
  const [started, silent, reference] = await Promise.all([
    startHttpServer(["--log", oursLog]),
    startHttpServer(["--silent", "--log", silentLog]),
    startEverything(),
  ]);
  ours = { ...started, log: oursLog };
  silentHttp = { ...silent, log: silentLog };
  everything = reference;
  console.log(`agent host: tarball packed and installed (${project.install}) in ${project.seconds.toFixed(1)}s`);
}, 120_000);
afterAll(async () => {
  await Promise.all([stopProcess(ours?.child), stopProcess(silentHttp?.child), stopProcess(everything?.child)]);
  project?.remove();
});

/** The host's argv for a stdio server.mjs: its command after `--`. */
const stdioServer = (log: string, ...flags: string[]) => ["--", process.execPath, join(project.dir, "server.mjs"), "--log", log, ...flags];

/**
 * Each generation, and how its server learns that a request was cancelled, as
 * server.mjs logs the handler's `signal.reason`: over stdio (either
 * generation) and in a 2025 HTTP session, a notifications/cancelled (never the
 * end of the input, `stdin closed.`, which the host's exit would also cause);
 * over 2026-07-28 HTTP, the response stream closed, which that revision
 * defines as the cancel.
 */
const generations = [
  // The host's default mode: server.mjs speaks 2026-07-28, so the client stays there.
  {
    generation: "2026-07-28",
    mode: [] as string[],
    cancelSeen: { stdio: "The client cancelled the request.", HTTP: "The client closed the HTTP request." },
    timeoutSeen: { stdio: "The client cancelled the request.", HTTP: "The client closed the HTTP request." },
  },
  {
    generation: "2025-11-25",
    mode: ["--mode", "2025-11-25"],
    cancelSeen: { stdio: "The client cancelled the request.", HTTP: "The client cancelled this request." },
    timeoutSeen: { stdio: "The client cancelled the request.", HTTP: "The client's timeout for this request elapsed." },
  },
];

describe.each(generations)("the agent host from the tarball, $generation", ({ generation, mode, cancelSeen, timeoutSeen }) => {
  it.concurrent("a silent stdio server: connect fails with RequestTimeout naming the handshake request, which the server was told was cancelled", async ({
    expect,
  }) => {
    const log = newLog();
    const run = await runHost([...mode, "--timeout", "500", ...stdioServer(log, "--silent")]);
    // Auto mode probes with server/discover, then falls back to initialize: the last request is the one named.
    expect(run.outcome).toMatch(/^RequestTimeout method=initialize elapsedMs=\d+$/);
    expect(run.code).toBe(3);
    const methods = seen(log).map((line) => line.method);
    const handshake = generation === "2026-07-28" ? ["server/discover", "notifications/cancelled", "initialize"] : ["initialize"];
    expect(methods).toEqual([...handshake, "notifications/cancelled"]);
  });

  it.concurrent("a silent HTTP endpoint (accepts, never responds): connect fails with RequestTimeout naming the handshake request", async ({ expect }) => {
    // A path of this case's own on the shared endpoint (it answers none anyway), to tell its requests apart.
    const path = `/mcp-${generation}`;
    const run = await runHost([...mode, "--timeout", "500", new URL(path, silentHttp.url).href]);
    expect(run.outcome).toMatch(/^RequestTimeout method=initialize elapsedMs=\d+$/);
    expect(run.code).toBe(3);
    const methods = seen(silentHttp.log)
      .filter((line) => line.path === path)
      .map((line) => line.method);
    expect(methods).toEqual(generation === "2026-07-28" ? ["server/discover", "initialize"] : ["initialize"]);
  });

  it.concurrent.for(["stdio", "HTTP"] as const)(
    "a tool that never answers, over %s: RequestTimeout naming tools/call, and the server saw the request cancelled",
    async (wire, { expect }) => {
      const log = wire === "stdio" ? newLog() : ours.log;
      const target = wire === "stdio" ? stdioServer(log) : [ours.url];
      const tag = `hang-${generation}-${wire}`;
      const run = await runHost([...mode, "--timeout", "2000", "--tool", "hang", "--args", JSON.stringify({ tag }), ...target]);
      expect(run.outcome).toMatch(/^RequestTimeout method=tools\/call elapsedMs=\d+$/);
      expect(run.code).toBe(3);
      expect(run.stdout).toContain(`connected: ${generation}`);
      await expect.poll(() => seen(log).filter((line) => line.tag === tag), SERVER_SAW).toEqual([{ tool: "hang", tag, cancelled: true, reason: timeoutSeen[wire] }]);
    },
  );

  it.concurrent.for(["stdio", "HTTP"] as const)(
    "a long call cancelled with Ctrl-C, over %s: the host prints cancelled, and the server saw its request cancelled",
    async (wire, { expect }) => {
      const log = wire === "stdio" ? newLog() : ours.log;
      const target = wire === "stdio" ? stdioServer(log) : [ours.url];
      const tag = `cancel-${generation}-${wire}`;
      const run = await runHost([...mode, "--tool", "work", "--args", JSON.stringify({ ms: 10_000, every: 50, tag }), ...target], /^progress: /m);
      expect(run.outcome).toBe("cancelled");
      expect(run.code).toBe(130);
      expect(run.stdout).toContain(`connected: ${generation}`);
      await expect
        .poll(() => seen(log).filter((line) => line.tag === tag), SERVER_SAW)
        .toEqual([{ tool: "work", tag, cancelled: true, step: expect.any(Number), reason: cancelSeen[wire] }]);
    },
  );

  it.concurrent("a connection cut mid-call (HTTP): 2025 resumes the stream with Last-Event-ID and the call completes; 2026-07-28 fails with a retryable ConnectionLost", async ({
    expect,
  }) => {
    const proxy = await cuttingProxy(portOf(ours.url));
    try {
      const tag = `cut-${generation}`;
      const run = await runHost([...mode, "--tool", "work", "--args", JSON.stringify({ ms: 600, every: 50, tag }), viaProxy(proxy)]);
      expect(proxy.connections.filter((connection) => connection.cut)).toHaveLength(1);
      const resumed = proxy.connections.filter((connection) => /\r\nlast-event-id: /i.test(connection.fromClient));
      if (generation === "2025-11-25") {
        expect(run.outcome).toBe("ok");
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/^result: worked 12 steps$/m);
        expect(resumed.length).toBeGreaterThanOrEqual(1);
        // The session's stream outlived the cut: the work ran to its end, once.
        await expect.poll(() => seen(ours.log).filter((line) => line.tag === tag), SERVER_SAW).toEqual([{ tool: "work", tag, cancelled: false }]);
      } else {
        expect(run.outcome).toBe("ConnectionLost method=tools/call retryable=true");
        expect(run.code).toBe(4);
        expect(resumed).toEqual([]);
        // Its stream closed under it, which is the cancel: the work stopped.
        await expect
          .poll(() => seen(ours.log).filter((line) => line.tag === tag), SERVER_SAW)
          .toEqual([{ tool: "work", tag, cancelled: true, step: expect.any(Number), reason: "The client closed the HTTP request." }]);
      }
    } finally {
      await proxy.close();
    }
  });

  it.concurrent("a stdio server that dies mid-call: a retryable ConnectionLost naming tools/call, as for a cut HTTP connection", async ({ expect }) => {
    const log = newLog();
    const tag = `crash-${generation}`;
    const run = await runHost([...mode, "--tool", "crash", "--args", JSON.stringify({ tag }), ...stdioServer(log)]);
    expect(run.outcome).toBe("ConnectionLost method=tools/call retryable=true");
    expect(run.code).toBe(4);
    expect(run.stdout).toContain(`connected: ${generation}`);
    expect(seen(log).filter((line) => line.tag === tag)).toEqual([{ tool: "crash", tag }]);
  });

  it.concurrent.for(["stdio", "HTTP"] as const)(
    "a failing callback (onElicit throws), over %s: InputRequestFailed; the same host answering runs the tool",
    async (wire, { expect }) => {
      const log = wire === "stdio" ? newLog() : ours.log;
      const target = wire === "stdio" ? stdioServer(log) : [ours.url];
      const tag = `ask-${generation}-${wire}`;
      const args = ["--tool", "ask", "--args", JSON.stringify({ tag })];
      const failed = await runHost([...mode, ...args, "--elicit", "throw", ...target]);
      expect(failed.outcome).toBe("InputRequestFailed method=elicitation/create serverResult=false");
      expect(failed.code).toBe(5);
      expect(failed.stdout).toContain("asked: Which region?");
      const answered = await runHost([...mode, ...args, "--elicit", JSON.stringify({ region: "eu-west-1" }), ...target]);
      expect(answered.outcome).toBe("ok");
      expect(answered.stdout).toMatch(/^result: Provisioned in eu-west-1$/m);
      // The handler ran once, for the answered call: the failed one never reached it.
      expect(seen(log).filter((line) => line.tag === tag)).toEqual([{ tool: "ask", tag, answered: "accept" }]);
    },
  );
});

/** What crossed a tap's pipes, from the client (`"> "`) or the server (`"< "`), as JSON-RPC messages. */
const tapped = (log: string, prefix: "> " | "< "): Record<string, unknown>[] => {
  try {
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.startsWith(prefix))
      .map((line) => JSON.parse(line.slice(2)) as Record<string, unknown>);
  } catch {
    return [];
  }
};
/** The JSON-RPC messages in HTTP request bodies the client sent through a proxy (one per POST). */
const posted = (proxy: { connections: { fromClient: string }[] }): Record<string, unknown>[] =>
  proxy.connections.flatMap((connection) =>
    [...connection.fromClient.matchAll(/\r\n\r\n(\{[^\r\n]*\})/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>),
  );
/** The id of the client's tools/call for `tool`, and whether a notifications/cancelled named it. */
const cancelOf = (messages: Record<string, unknown>[], tool: string) => {
  const call = messages.find((message) => message.method === "tools/call" && (message.params as { name?: string }).name === tool);
  const cancels = messages.filter((message) => message.method === "notifications/cancelled").map((message) => (message.params as { requestId: unknown }).requestId);
  return { called: call !== undefined, cancelled: call !== undefined && cancels.includes(call.id) };
};

describe("the agent host from the tarball, against the reference 2025-era server-everything (reached in auto mode)", () => {
  /** The host's argv for server-everything over stdio, behind a tap that logs its pipes to `log`. */
  const tappedEverything = (log: string) => ["--", "env", `TAP_LOG=${log}`, process.execPath, TAP, process.execPath, EVERYTHING];

  it.concurrent("a long call cancelled with Ctrl-C, over stdio: cancelled, and the server got notifications/cancelled for it", async ({ expect }) => {
    const log = newLog();
    const run = await runHost(["--tool", LONG, "--args", JSON.stringify({ duration: 10, steps: 20 }), ...tappedEverything(log)], /^progress: /m);
    expect(run.outcome).toBe("cancelled");
    expect(run.code).toBe(130);
    expect(run.stdout).toContain("connected: 2025-11-25");
    expect(cancelOf(tapped(log, "> "), LONG)).toEqual({ called: true, cancelled: true });
  });

  it.concurrent("a long call cancelled with Ctrl-C, over HTTP: cancelled, and notifications/cancelled for it was POSTed in the session", async ({ expect }) => {
    // Holds the server's side of a connection the host dropped: the cancel must come as a message, not a closed socket.
    const proxy = await tcpProxy(everything.port, { holdServerSide: true });
    try {
      const run = await runHost(["--tool", LONG, "--args", JSON.stringify({ duration: 10, steps: 20 }), viaProxy(proxy)], /^progress: /m);
      expect(run.outcome).toBe("cancelled");
      expect(run.code).toBe(130);
      expect(cancelOf(posted(proxy), LONG)).toEqual({ called: true, cancelled: true });
    } finally {
      await proxy.close();
    }
  });

  it.concurrent("a tool slower than --timeout, over stdio: RequestTimeout naming tools/call, and the server got notifications/cancelled for it", async ({
    expect,
  }) => {
    const log = newLog();
    const run = await runHost(["--timeout", "3000", "--tool", LONG, "--args", JSON.stringify({ duration: 10, steps: 2 }), ...tappedEverything(log)]);
    expect(run.outcome).toMatch(/^RequestTimeout method=tools\/call elapsedMs=\d+$/);
    expect(run.code).toBe(3);
    expect(cancelOf(tapped(log, "> "), LONG)).toEqual({ called: true, cancelled: true });
  });

  it.concurrent("a connection cut mid-call (HTTP): the stream is resumed with Last-Event-ID and the call completes", async ({ expect }) => {
    const proxy = await cuttingProxy(everything.port);
    try {
      const run = await runHost(["--tool", LONG, "--args", JSON.stringify({ duration: 0.6, steps: 3 }), viaProxy(proxy)]);
      expect(run.outcome).toBe("ok");
      expect(run.stdout).toMatch(/^result: Long running operation completed\. Duration: 0\.6 seconds, Steps: 3\.$/m);
      expect(proxy.connections.filter((connection) => connection.cut)).toHaveLength(1);
      expect(proxy.connections.some((connection) => /\r\nlast-event-id: /i.test(connection.fromClient))).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it.concurrent("a failing callback (onElicit throws), over HTTP: InputRequestFailed, with the server's result attached", async ({ expect }) => {
    const run = await runHost(["--tool", "trigger-elicitation-request", "--elicit", "throw", `http://127.0.0.1:${everything.port}/mcp`]);
    expect(run.outcome).toBe("InputRequestFailed method=elicitation/create serverResult=true");
    expect(run.code).toBe(5);
  });
});
