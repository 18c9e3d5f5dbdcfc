/**
 * Starting the server process of a stdio client: the options that say what
 * to run and with which environment, and the spawn itself. The transport
 * that speaks JSON-RPC over the child's pipes is `client.ts`.
 */
import type { ChildProcess } from "node:child_process";
import type { StdioClientOptions } from "./client-options.js";
import { childEnvironment } from "./env.js";

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
