/**
 * The `#stdio-spawn` import on a runtime without processes (a browser, a
 * worker; see `spawn-node.ts`): a command target fails with an error that
 * says what to connect to instead, and the bundle carries no stdio code.
 *
 * @module
 * @internal
 */
import type { ClientTransport } from "../types.js";
import type { StdioClientOptions } from "./client.js";

/** Refuses: this build of the package has no stdio. @internal */
export function spawnStdio(options: StdioClientOptions): Promise<ClientTransport> {
  return Promise.reject(
    new TypeError(
      `Client.connect cannot spawn "${String(options.command)}": this runtime has no child processes (the package was ` +
        'resolved without the "node" condition, as for a browser or a worker). Connect to a Streamable HTTP URL instead, ' +
        "or run the client on Node, Deno or Bun.",
    ),
  );
}
