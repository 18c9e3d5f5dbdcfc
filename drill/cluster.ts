// A Redis Cluster on 127.0.0.1 for the drill: three masters, one replica
// each, no persistence, a short node timeout (2 s) so a master that dies
// (or freezes) fails over to its replica within seconds. Created with
// `redis-cli --cluster create`, as an operator would.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "../examples/fleet/fleet.js";
import { Random } from "./random.js";

/** A running cluster. */
export interface RedisCluster {
  /** `127.0.0.1:<port>` of every node (the instances' seed list). */
  readonly addresses: string[];
  /** The Redis faults of the drill, aimed at one master (a replica takes over). */
  faults(): { kill(): Promise<void>; revive(): Promise<void>; signal(signal: NodeJS.Signals): void };
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function cli(redisCli: string, port: number, ...args: string[]): string {
  return spawnSync(redisCli, ["-h", "127.0.0.1", "-p", String(port), ...args], { encoding: "utf8", timeout: 10_000 }).stdout ?? "";
}

/** Starts six nodes and joins them into a cluster; resolves once `cluster_state:ok`. */
export async function startCluster(redisServer: string, redisCli: string, dir: string): Promise<RedisCluster> {
  const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const nodes = new Map<number, ChildProcess>();
  const start = (port: number) => {
    const child = spawn(
      redisServer,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-node-timeout",
        "2000",
      ].concat(["--appendonly", "no", "--save", "", "--dir", dir, "--dbfilename", `dump-${port}.rdb`, "--repl-diskless-sync-delay", "0"]),
      { stdio: "ignore" },
    );
    nodes.set(port, child);
  };
  const stop = async () => {
    await Promise.all(
      [...nodes.values()].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGCONT");
        child.kill("SIGKILL");
        await exited;
      }),
    );
  };
  try {
    ports.forEach(start);
    for (const port of ports) {
      for (let tries = 0; !cli(redisCli, port, "PING").includes("PONG"); tries++) {
        if (tries > 200) throw new Error(`redis-server on ${port} did not answer PING within 5 s`);
        await sleep(25);
      }
    }
    const created = spawnSync(redisCli, ["--cluster", "create", ...ports.map((port) => `127.0.0.1:${port}`), "--cluster-replicas", "1", "--cluster-yes"], {
      encoding: "utf8",
      timeout: 30_000,
    });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    // Every node must know all six (gossip takes a moment after the create): a master that does not know a failing
    // one cannot vote for its replica, and the failover never happens.
    const joined = (port: number) => {
      const info = cli(redisCli, port, "CLUSTER", "INFO");
      if (!info.includes("cluster_state:ok") || !info.includes(`cluster_known_nodes:${ports.length}`)) return false;
      // A replica that has not finished its first sync cannot take over: wait for every link.
      const replication = cli(redisCli, port, "INFO", "replication");
      return replication.includes("role:master") || replication.includes("master_link_status:up");
    };
    for (let tries = 0; !ports.every(joined); tries++) {
      if (tries > 600) throw new Error("the Redis Cluster did not reach cluster_state:ok with every node known within 30 s");
      await sleep(50);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const random = new Random(ports[0]!);
  let target = ports[0]!;
  // The master that holds the drill's keys (the slot of "{drill}"), else any live one.
  const master = () => {
    const masters = ports.filter((port) => nodes.get(port)?.exitCode === null && cli(redisCli, port, "ROLE").startsWith("master"));
    return masters.find((port) => !cli(redisCli, port, "EXISTS", "{drill}:epoch").includes("MOVED")) ?? masters[random.int(0, masters.length - 1)] ?? ports[0]!;
  };
  const failedOver = async () => {
    for (let tries = 0; tries < 200; tries++) {
      if (ports.some((port) => port !== target && cli(redisCli, port, "CLUSTER", "INFO").includes("cluster_state:ok"))) return;
      await sleep(50);
    }
  };
  return {
    addresses: ports.map((port) => `127.0.0.1:${port}`),
    faults: () => ({
      async kill() {
        target = master();
        const child = nodes.get(target)!;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      },
      async revive() {
        // Once its replica took over (cluster_state:ok again), back without data: it rejoins as that replica's replica.
        await sleep(2_500);
        await failedOver();
        start(target);
      },
      signal(signal: NodeJS.Signals) {
        if (signal === "SIGSTOP") target = master();
        nodes.get(target)?.kill(signal);
      },
    }),
    stop,
  };
}
