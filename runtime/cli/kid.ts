/**
 * `mcp-roundtrip kid`: the key id of each key given, or of each key of a
 * ring (`--keys-env`, `--keys-file`), the way the start-up log and the
 * rejection log name them. Prints ids only, never a key.
 *
 * @module
 * @internal
 */
import type { Command } from "commander";
import { decodeKeyEntry, kidHex } from "../state/primitives/key-sources.js";
import { secretBytes } from "../state/primitives/keys.js";
import { selectBackend } from "../state/primitives/select-backend.js";
import { CliError } from "./errors.js";
import { readKeyRing, type KeyRingOptions } from "./keys-input.js";

/** Adds `kid` to the program. @internal */
export function registerKid(program: Command): void {
  program
    .command("kid")
    .description("print the key id of each key (base64url:…, base64:… or hex:…), or of each key of a ring; the first of a ring mints")
    .argument("[keys...]", "prefixed key entries")
    .option("--keys-env <name>", "read the ring from this environment variable, e.g. MCP_REQUEST_STATE_KEYS")
    .option("--keys-file <path>", "read the ring from this file")
    .option("--utf8", "take each argument as a raw UTF-8 string secret (what new RequestStateSecurity({ keys: [string] }) does)")
    .action(async (entries: string[], options: KeyRingOptions & { utf8?: boolean }) => {
      const backend = selectBackend("auto");
      const ring = await readKeyRing(options);
      if (ring !== undefined && entries.length > 0) throw new CliError("give keys as arguments or as a ring (--keys-env, --keys-file), not both");
      if (ring === undefined && entries.length === 0) throw new CliError("give at least one key, or --keys-env / --keys-file (see kid --help)");
      let secrets: Uint8Array[];
      try {
        secrets = ring ?? entries.map((entry, index) => (options.utf8 ? secretBytes([entry])[0]! : decodeKeyEntry(entry, `key ${index + 1}`)));
      } catch (error) {
        throw new CliError((error as Error).message, undefined, { cause: error });
      }
      secrets.forEach((secret, index) => {
        const role = ring === undefined ? "" : index === 0 ? "  mints and verifies" : "  verifies";
        process.stdout.write(`${kidHex(backend, secret)}${role}\n`);
      });
    });
}
