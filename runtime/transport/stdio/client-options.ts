/**
 * What the stdio client's API names: its options and the child's piped
 * stderr, with no Node type in them, so `mcp-roundtrip/client`'s
 * declarations type-check in a project without Node's types (a browser, a
 * worker). The spawn itself is `child.ts`.
 *
 * @module
 */
import type { JsonRpcNotification } from "../../protocol/jsonrpc/messages.js";

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

/**
 * The spawned server's stderr, when `stderr: "pipe"` was chosen: a Node
 * `Readable`, described by what reading it needs (events, async iteration), so the client's types need no Node types. Chunks are `Buffer`s
 * (`Uint8Array`s) unless an encoding was set on the stream.
 */
export interface StdioChildStderr extends AsyncIterable<Uint8Array | string> {
  /** Listens for output (`"data"`), the end of it (`"end"`), or anything else the stream emits. */
  on(event: string, listener: (...args: any[]) => void): this;
  /** Sets the encoding, so `"data"` chunks arrive as strings. */
  setEncoding(encoding: string): this;
}
