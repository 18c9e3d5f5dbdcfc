/**
 * Where a CLI command reads a key ring from: `--keys` (the ring's text, as
 * in `MCP_REQUEST_STATE_KEYS`), `--keys-env NAME` or `--keys-file PATH`.
 * Keys are read, never printed.
 *
 * @module
 * @internal
 */
import { keyRingFromEnv, keyRingFromFile, parseKeyRing } from "../state/primitives/key-sources.js";
import { CliError } from "./errors.js";

/** The ring options a command accepts. @internal */
export interface KeyRingOptions {
  keys?: string;
  keysEnv?: string;
  keysFile?: string;
}

/** The ring the options name, or `undefined` when none is given. @throws {CliError} when more than one is given or the ring is invalid. */
export async function readKeyRing(options: KeyRingOptions): Promise<Uint8Array[] | undefined> {
  const given = [options.keys, options.keysEnv, options.keysFile].filter((value) => value !== undefined).length;
  if (given === 0) return undefined;
  if (given > 1) throw new CliError("give the key ring once: --keys, --keys-env or --keys-file");
  try {
    if (options.keys !== undefined) return parseKeyRing(options.keys, "--keys");
    if (options.keysEnv !== undefined) return keyRingFromEnv(options.keysEnv);
    return await keyRingFromFile(options.keysFile!);
  } catch (error) {
    throw new CliError((error as Error).message, undefined, { cause: error });
  }
}
