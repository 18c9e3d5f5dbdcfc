/**
 * What `Client.connect` accepts as a target. Types only, here in the protocol
 * floor, so the client names them and runtime/connect/ (which opens a
 * transport for each) implements them, without the client importing a transport.
 *
 * @module
 */
import type { ClientTransport, MessageHandler } from "./contracts.js";

/** A command line for a stdio server: the client spawns it. */
export interface CommandTarget {
  /** The program to run, found on PATH like a shell would; no shell parses it, so pass arguments in `args`. */
  command: string;
  /** Its arguments, passed as they are (no quoting or globbing). */
  args?: string[];
  /** Variables for the server, on top of the few it inherits (see `inheritEnv`). */
  env?: Record<string, string>;
  /**
   * Which of this process's variables the server inherits: by default PATH,
   * HOME, USER, LOGNAME, SHELL, TERM, TMPDIR, LANG (and their Windows
   * counterparts), never your API keys; a list names others, `true` passes all.
   */
  inheritEnv?: readonly string[] | true;
  /** The server's working directory; default this process's. */
  cwd?: string;
}

/**
 * What `Client.connect` accepts: a server object in the same process (any
 * `MessageHandler`, e.g. `Server` or `McpServer`), a ready `ClientTransport`,
 * a Streamable HTTP endpoint URL, or a stdio command.
 */
export type ConnectTarget = MessageHandler | ClientTransport | string | URL | CommandTarget;
