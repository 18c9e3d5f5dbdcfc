/**
 * The CLI's exit codes and the one error type its commands throw: the
 * message is printed on stderr as `mcp-roundtrip: …` and the process exits
 * with the code, so scripts can tell a usage mistake from a token that
 * belongs to another key ring.
 *
 * @module
 * @internal
 */

/** Exit codes of `npx mcp-roundtrip`. */
export const ExitCode = {
  /** Done. */
  ok: 0,
  /** Something unexpected failed (a bug, an I/O error). */
  failure: 1,
  /** Bad usage or input: an unknown option, a malformed key or token. */
  usage: 2,
  /** `inspect --keys`: the token was sealed under a key id the ring does not hold. */
  unknownKey: 3,
  /** `inspect --keys`: the key id is in the ring but the token fails authentication (tampered, or not ours). */
  forged: 4,
} as const;

/** A failure a command reports with its own exit code. */
export class CliError extends Error {
  override readonly name = "CliError" as const;
  readonly exitCode: number;

  constructor(message: string, exitCode: number = ExitCode.usage, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}
