// Shared plumbing of the interop tests: a node:http listener on 127.0.0.1
// that records what the client sent, the bridge that serves a web-standard
// handler on it, and a bounded wait.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** One HTTP request the client made, as the peer received it. */
export interface Seen {
  method: string;
  headers: IncomingMessage["headers"];
  /** The JSON-RPC method of a POST body, or `"(response)"` for a posted answer. */
  rpc: string | undefined;
}

/** Reads a request body as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The JSON-RPC method a body names, for the traffic log. */
function rpcOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const method = (body as { method?: unknown }).method;
  return typeof method === "string" ? method : "(response)";
}

/**
 * Serves `handle` on 127.0.0.1 (a free port), parsing POST bodies as JSON
 * first (as body-parser middleware would) and recording each request.
 */
export async function listen(handle: (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void> | void) {
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    try {
      const text = req.method === "POST" ? await readBody(req) : "";
      const body = text === "" ? undefined : JSON.parse(text);
      seen.push({ method: req.method ?? "", headers: req.headers, rpc: rpcOf(body) });
      await handle(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A node:http listener for a web-standard `(Request) => Response` handler, the bridge their docs leave to an adapter package. */
export function bridge(handler: { fetch(request: Request): Promise<Response> } | ((request: Request) => Promise<Response>)): RequestListener {
  const fetchOf = typeof handler === "function" ? handler : (request: Request) => handler.fetch(request);
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const body = req.method !== "GET" && req.method !== "HEAD" ? Buffer.from(await readBody(req)) : undefined;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const item of value) headers.append(name, item);
        else if (value !== undefined) headers.set(name, value);
      }
      const controller = new AbortController();
      res.on("close", () => controller.abort());
      const response = await fetchOf(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, signal: controller.signal }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.flushHeaders();
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  };
}

/** Resolves once `check` returns true, polling; rejects with `what` after `ms`. */
export async function waitFor(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A port free on 127.0.0.1 right now, for peers that only take a port number. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Starts a peer's command and resolves once its stderr or stdout matches
 * `ready`; rejects if it exits first or takes longer than `ms`.
 */
export function startProcess(command: string, args: string[], env: Record<string, string>, ready: RegExp, ms = 20_000): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")} did not get ready within ${ms} ms:\n${output}`));
    }, ms);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited (code ${code}) before it was ready:\n${output}`));
    });
  });
}

/** Stops a child process and waits for it to be gone. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await gone;
  clearTimeout(timer);
}
