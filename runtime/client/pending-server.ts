/**
 * Which server a parked call belongs to: the record a {@link PendingRequest}
 * keeps so that `client.resume` can refuse to continue it somewhere else.
 * Its fields are checked and compared by the first `resume` (./resume.ts).
 *
 * @module
 */

/** The server a parked call was started with, and the revision it spoke then. Plain JSON. */
export interface PendingServer {
  /**
   * Where the server was reached: `"http <origin><path>"` for a URL,
   * `"stdio [cwd, command, …args]"` for a spawned command; absent for a
   * server in this process or a custom transport, which name no endpoint.
   */
  endpoint?: string;
  /** The server's `serverInfo.name` (from `server/discover` or `initialize`), when it gave one. */
  name?: string;
  /** The server's `serverInfo.version`, when it gave one (recorded, not compared: an upgraded server may still continue). */
  version?: string;
  /** The protocol revision the call was made in (`"2026-07-28"`). */
  protocolVersion: string;
}
