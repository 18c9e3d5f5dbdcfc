/**
 * What `Client.connect({ command })` loads on runtimes that can spawn a
 * process (Node, Deno, Bun): package.json `imports["#stdio-spawn"]` maps
 * here under the `node` condition. Everywhere else (a browser, a worker)
 * it maps to `spawn-absent.ts`, so no bundle for those runtimes reaches
 * `node:child_process`.
 *
 * @module
 * @internal
 */
import type { ClientTransport } from "../types.js";
import { StdioClientTransport, type StdioClientOptions } from "./client.js";

/** Spawns a stdio server. @internal */
export function spawnStdio(options: StdioClientOptions): Promise<ClientTransport> {
  return StdioClientTransport.spawn(options);
}
