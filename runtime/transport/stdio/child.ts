/**
 * Starting the server process of a stdio client: the options that say what
 * to run and with which environment, and the spawn itself. The transport
 * that speaks JSON-RPC over the child's pipes is `client.ts`.
 */
import type { ChildProcess } from "node:child_process";
import type { JsonRpcNotification } from "../../protocol/jsonrpc/messages.js";
import { childEnvironment } from "./env.js";

/** Options of {@link StdioClientTransport}. */
export interface StdioClientOptions {
  /** The executable to spawn, e.g. `"node"`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /**
   * Variables for the child, on top of the ones it inherits from this
   * process (`inheritEnv`); an `undefined` value removes one.
   */
  env?: Record<string, string | undefined>;
  /**
   * Which of this process's variables the child inherits. Default: a short
   * allow-list ({@link DEFAULT_INHERITED_ENV}: PATH, HOME, USER, LOGNAME,
   * SHELL, TERM, TMPDIR, LANG and their Windows counterparts), so API keys
   * and cloud credentials in this process's environment do not reach the
   * server. A list names others; `true` passes everything (not recommended).
   */
  inheritEnv?: readonly string[] | true;
  /** Working directory of the child. */
  cwd?: string;
  /** What to do with the child's stderr (its logs). Default `"inherit"`. */
  stderr?: "inherit" | "pipe" | "ignore";
  /** Longest accepted line from the child, in bytes; a longer reply fails its request with an error saying so. Default 4 MiB. */
  maxLineBytes?: number;
  /**
   * How long `close()` waits for the child to exit after its stdin ends,
   * before sending SIGTERM (then SIGKILL 2 s later), in ms. Default 250.
   */
  shutdownTimeoutMs?: number;
  /** Receives notifications no pending request claims. */
  onNotification?: (notification: JsonRpcNotification) => void;
}

/** Spawns the command and resolves once the process has started. */
export async function startChild(options: StdioClientOptions): Promise<ChildProcess> {
  const { spawn } = await import("node:child_process");
  const child = spawn(options.command, [...(options.args ?? [])], {
    env: childEnvironment(options.env, options.inheritEnv),
    cwd: options.cwd,
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
    windowsHide: true,
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", (error) => reject(new Error(`Could not start the MCP server "${options.command}": ${error.message}`, { cause: error })));
  });
  return child;
}
