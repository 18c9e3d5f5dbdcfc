/**
 * {@link StdioClientTransport} on a runtime without processes (a browser, a
 * worker): what `mcp-roundtrip/client` exports in its place when the package
 * is resolved without the `node` condition. Importing it is fine, so code
 * shared between Node and a browser bundles; spawning refuses with what to
 * connect to instead, and the bundle carries no stdio code.
 *
 * @module
 * @internal
 */
import type { StdioClientOptions } from "./client-options.js";

/** The stdio client where there are no child processes: {@link StdioClientTransport.spawn} refuses. @internal */
export class StdioClientTransport {
  private constructor() {}

  /** Refuses: this build of the package has no child processes. @internal */
  static spawn(options: StdioClientOptions): Promise<never> {
    return Promise.reject(
      new TypeError(
        `Cannot spawn "${String(options?.command)}": this runtime has no child processes (the package was resolved without ` +
          'the "node" condition, as for a browser or a worker). Connect to a Streamable HTTP URL instead, or run the client on ' +
          "Node, Deno or Bun.",
      ),
    );
  }
}
