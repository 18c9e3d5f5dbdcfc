/**
 * `mcp-roundtrip keygen`: prints a fresh 32-byte key as a prefixed entry,
 * ready for `MCP_REQUEST_STATE_KEYS` (and its key id on stderr, so
 * `KEY=$(npx mcp-roundtrip keygen)` captures only the key).
 *
 * @module
 * @internal
 */
import type { Command } from "commander";
import { hexOf, kidHex } from "../state/primitives/key-sources.js";
import { selectBackend } from "../state/primitives/select-backend.js";
import { CliError } from "./errors.js";

const ENCODERS: Record<string, (bytes: Uint8Array) => string> = {
  base64url: (bytes) => Buffer.from(bytes).toString("base64url"),
  base64: (bytes) => Buffer.from(bytes).toString("base64"),
  hex: (bytes) => hexOf(bytes),
};

/** Adds `keygen` to the program. @internal */
export function registerKeygen(program: Command): void {
  program
    .command("keygen")
    .description("print a new random 32-byte key as an MCP_REQUEST_STATE_KEYS entry (its key id goes to stderr)")
    .option("-e, --encoding <encoding>", "base64url, base64 or hex", "base64url")
    .option("-n, --count <n>", "how many keys, one per line", "1")
    .option("--json", 'print {"key", "keyId"} objects, one per line')
    .action((options: { encoding: string; count: string; json?: boolean }) => {
      const encode = ENCODERS[options.encoding];
      if (encode === undefined) throw new CliError(`--encoding must be base64url, base64 or hex, got ${JSON.stringify(options.encoding)}`);
      const count = Number(options.count);
      if (!Number.isSafeInteger(count) || count < 1 || count > 100)
        throw new CliError(`--count must be an integer from 1 to 100, got ${JSON.stringify(options.count)}`);
      const backend = selectBackend("auto");
      for (let i = 0; i < count; i++) {
        const bytes = backend.randomBytes(32);
        const key = `${options.encoding}:${encode(bytes)}`;
        const keyId = kidHex(backend, bytes);
        bytes.fill(0);
        if (options.json) process.stdout.write(`${JSON.stringify({ key, keyId })}\n`);
        else {
          process.stdout.write(`${key}\n`);
          process.stderr.write(`key id ${keyId}\n`);
        }
      }
    });
}
