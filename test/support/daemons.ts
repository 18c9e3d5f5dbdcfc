// Launchers for the daemons system tests run: each on a free port on
// 127.0.0.1, in its own temporary directory, in the foreground, stopped by
// the test (afterAll). Nothing here listens beyond loopback.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A free TCP port on 127.0.0.1 (bound once, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on `port`, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 10_000, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child !== undefined && child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode} before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A daemon a test started. */
export interface Daemon {
  port: number;
  dir: string;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

function launch(program: string, args: string[], dir: string, port: number): Daemon & { child: ChildProcess } {
  const child = spawn(program, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return {
    child,
    port,
    dir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `redis-server` on 127.0.0.1, nothing persisted. */
export async function startRedis(program: string): Promise<Daemon> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "mcp-redis-"));
  const daemon = launch(
    program,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "yes"],
    dir,
    port,
  );
  await waitForPort(port, 10_000, daemon.child);
  return daemon;
}

/**
 * Starts nginx in the foreground with `config(port, dir)` as its whole
 * configuration (error log, pid and temp paths are the caller's to put in `dir`).
 */
export async function startNginx(program: string, config: (port: number, dir: string) => string): Promise<Daemon> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "mcp-nginx-"));
  const path = join(dir, "nginx.conf");
  writeFileSync(path, config(port, dir));
  const daemon = launch(program, ["-p", dir, "-c", path, "-e", join(dir, "error.log")], dir, port);
  await waitForPort(port, 10_000, daemon.child);
  return daemon;
}
