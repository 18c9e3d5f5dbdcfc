// Runs the fleet example: Redis (optional), N instances of instance.ts on
// 127.0.0.1, and nginx in front, each in the foreground from a temporary
// directory; then restarts instances one by one (a rolling restart with
// drain) or kills one with SIGKILL, as an operator or an orchestrator would.
//
// A restart follows docs/operations.md: mark the instance down in nginx and
// reload (no new connection reaches it), SIGTERM (it drains what is in
// flight and exits), start the new process, wait for /healthz, put it back.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nginxFleetConfig } from "./nginx.js";

/** Where the programs are. */
export interface FleetPrograms {
  nginx: string;
  /** Needed only with `redis: true`. */
  redisServer?: string;
  /** The built instance script (dist/examples/fleet/instance.js). */
  instanceScript: string;
}

/** How to start the fleet. */
export interface FleetOptions {
  /** The key ring every instance starts with (MCP_REQUEST_STATE_KEYS). */
  keys: string;
  instances?: number;
  /** Run a redis-server and give every instance REDIS_URL (one-time tokens). */
  redis?: boolean;
  /** Redis persistence: none (the default: a restart comes back empty) or an append-only file fsynced on every write. */
  redisPersistence?: "none" | "aof";
  /** More environment for every instance (FLEET_TTL_SECONDS, FLEET_WORK_MS, …). */
  env?: Record<string, string>;
  /** Where nginx sends instance n's traffic, when not to its own port (a fault-injecting proxy in front of it). */
  upstreamPorts?: Record<number, number>;
}

/** One instance's process and what it printed. */
export interface FleetInstance {
  readonly index: number;
  readonly port: number;
  /** `127.0.0.1:<port>`, as nginx's $upstream_addr names it. */
  readonly address: string;
  /** Everything every process of this instance printed (the start-up key ring, rejections). */
  log(): string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (child !== undefined && child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${timeoutMs} ms`);
    await sleep(25);
  }
}

const listening = (port: number) => () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

const healthy = (port: number) => async () => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200;
  } catch {
    return false;
  }
};

/** A running fleet. */
export class Fleet {
  readonly dir: string;
  readonly instances: FleetInstance[] = [];
  /** The round-robin endpoint behind nginx. */
  url = "";
  /** nginx's base URL (`/mcp` round-robin, `/via/<n>/mcp` preferring instance n). */
  base = "";
  readonly #programs: FleetPrograms;
  readonly #options: FleetOptions;
  readonly #children: (ChildProcess | undefined)[] = [];
  readonly #logs: string[] = [];
  readonly #env: Record<string, string>[] = [];
  #nginx: ChildProcess | undefined;
  #redis: ChildProcess | undefined;
  #nginxPort = 0;
  #redisPort = 0;
  readonly #down = new Set<number>();
  readonly #unexpected: string[] = [];
  #nginxLog = "";

  private constructor(programs: FleetPrograms, options: FleetOptions) {
    this.#programs = programs;
    this.#options = options;
    this.dir = mkdtempSync(join(tmpdir(), "mcp-fleet-"));
  }

  /** Starts Redis (if asked), the instances, then nginx; resolves once all are ready. */
  static async start(programs: FleetPrograms, options: FleetOptions): Promise<Fleet> {
    const fleet = new Fleet(programs, options);
    try {
      await fleet.#startAll();
    } catch (error) {
      await fleet.stop();
      throw error;
    }
    return fleet;
  }

  async #startAll(): Promise<void> {
    const env: Record<string, string> = { ...this.#options.env, MCP_REQUEST_STATE_KEYS: this.#options.keys };
    if (this.#options.redis) {
      if (this.#programs.redisServer === undefined) throw new Error("the fleet needs redis-server for redis: true");
      this.#redisPort = await freePort();
      await this.#startRedis();
      env.REDIS_URL = `redis://127.0.0.1:${this.#redisPort}`;
    }
    const count = this.#options.instances ?? 3;
    for (let index = 0; index < count; index++) {
      const port = await freePort();
      this.#logs.push("");
      this.#env.push({ ...env });
      this.instances.push({ index, port, address: `127.0.0.1:${port}`, log: () => this.#logs[index]! });
    }
    await Promise.all(this.instances.map((instance) => this.#spawn(instance.index)));
    const listenPort = (this.#nginxPort = await freePort());
    const config = this.#writeNginxConfig();
    this.#nginx = spawn(this.#programs.nginx, ["-p", this.dir, "-c", config, "-e", join(this.dir, "error.log")], { stdio: "ignore" });
    await waitFor(listening(listenPort), "nginx", 10_000, this.#nginx);
    this.base = `http://127.0.0.1:${listenPort}`;
    this.url = `${this.base}/mcp`;
  }

  #writeNginxConfig(): string {
    const path = join(this.dir, "nginx.conf");
    const ports = this.instances.map((instance) => this.#options.upstreamPorts?.[instance.index] ?? instance.port);
    writeFileSync(
      path,
      nginxFleetConfig({ listenPort: this.#nginxPort, instancePorts: ports, dir: this.dir, runAsRoot: process.getuid?.() === 0, down: this.#down }),
    );
    return path;
  }

  /** Rewrites nginx.conf and reloads (SIGHUP): old workers finish their requests, new ones use the new upstreams. */
  async #reloadNginx(settleMs: number): Promise<void> {
    this.#writeNginxConfig();
    this.#nginx?.kill("SIGHUP");
    // New workers take over within milliseconds; the wait also lets connections already queued at the instance be accepted.
    await sleep(settleMs);
  }

  /** nginx's error log so far (kept after stop). */
  nginxLog(): string {
    try {
      return readFileSync(join(this.dir, "error.log"), "utf8");
    } catch {
      return this.#nginxLog;
    }
  }

  async #spawn(index: number): Promise<void> {
    const instance = this.instances[index]!;
    const child = spawn(process.execPath, [this.#programs.instanceScript], {
      env: { ...process.env, ...this.#env[index], PORT: String(instance.port), FLEET_INSTANCE: `i${index}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const append = (chunk: Buffer) => (this.#logs[index] += chunk.toString());
    child.stdout!.on("data", append);
    child.stderr!.on("data", append);
    // An exit the fleet did not cause (#terminate forgets the child first) is a crash: kept for exits() callers.
    child.once("exit", (code, signal) => {
      if (this.#children[index] === child) this.#unexpected.push(`instance ${index} (pid ${child.pid}) exited with ${code ?? signal}`);
    });
    this.#children[index] = child;
    await waitFor(healthy(instance.port), `instance ${index}`, 15_000, child);
  }

  /**
   * Restarts one instance the way a rolling deploy does: out of nginx's
   * rotation (marked down, reloaded), SIGTERM (the instance drains and
   * exits), the new process with `keys`, its health path answering 200, and
   * back into rotation.
   */
  async restart(index: number, keys?: string): Promise<void> {
    this.#down.add(index);
    await this.#reloadNginx(600);
    await this.#terminate(index, "SIGTERM");
    if (keys !== undefined) this.#env[index]!.MCP_REQUEST_STATE_KEYS = keys;
    await this.#spawn(index);
    this.#down.delete(index);
    await this.#reloadNginx(100);
  }

  /** Restarts every instance in turn with `keys`: one phase of a rotation. */
  async rollingRestart(keys: string): Promise<void> {
    for (const instance of this.instances) await this.restart(instance.index, keys);
  }

  /** Kills one instance with SIGKILL (no drain) and resolves once it is gone. */
  async kill(index: number): Promise<void> {
    await this.#terminate(index, "SIGKILL");
  }

  /** Kills redis-server with SIGKILL (an outage: nothing is flushed) and resolves once it is gone. */
  async killRedis(): Promise<void> {
    const child = this.#redis;
    this.#redis = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  /** Starts redis-server again on the same port, as after a crash: empty without persistence, else from its append-only file. */
  async reviveRedis(): Promise<void> {
    await this.#startRedis();
  }

  async #startRedis(): Promise<void> {
    const port = this.#redisPort;
    const persistence = this.#options.redisPersistence === "aof" ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"];
    this.#redis = spawn(this.#programs.redisServer!, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence, "--dir", this.dir], {
      stdio: "ignore",
    });
    await waitFor(listening(port), "redis-server", 10_000, this.#redis);
  }

  /** How each instance's current process stands: `null` while it runs, else its exit code or signal. */
  exits(): (number | string | null)[] {
    return this.#children.map((child) => (child === undefined ? "stopped" : (child.exitCode ?? child.signalCode ?? null)));
  }

  /** Every instance exit the fleet did not cause (not a restart, a kill or stop): empty unless something crashed. */
  unexpectedExits(): string[] {
    return [...this.#unexpected];
  }

  /** Sends `signal` to redis-server (SIGSTOP freezes it, SIGCONT resumes it). */
  signalRedis(signal: NodeJS.Signals): void {
    this.#redis?.kill(signal);
  }

  /** Each instance's health path status (0 when it does not answer). */
  async health(): Promise<number[]> {
    return Promise.all(
      this.instances.map(async (instance) => {
        try {
          return (await fetch(`http://127.0.0.1:${instance.port}/healthz`)).status;
        } catch {
          return 0;
        }
      }),
    );
  }

  /** Starts an instance that was killed. */
  async revive(index: number): Promise<void> {
    await this.#spawn(index);
  }

  async #terminate(index: number, signal: NodeJS.Signals): Promise<void> {
    const child = this.#children[index];
    this.#children[index] = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }

  /** Stops everything and removes the temporary directory. */
  async stop(): Promise<void> {
    this.#nginxLog = this.nginxLog();
    await Promise.all(this.instances.map((instance) => this.#terminate(instance.index, "SIGTERM")));
    for (const child of [this.#nginx, this.#redis]) {
      if (child === undefined || child.exitCode !== null) continue;
      child.kill("SIGCONT"); // a frozen (SIGSTOP) process would never act on the SIGTERM
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
