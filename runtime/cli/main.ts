#!/usr/bin/env node
/**
 * `npx mcp-roundtrip <command>`: key tooling for operators of a fleet:
 * `keygen`, `kid`, `inspect`, `rotation-plan`. Every command has `--help`;
 * exit codes are listed in `errors.ts` (0 ok, 1 failure, 2 usage, 3 unknown
 * key id, 4 fails authentication).
 *
 * @module
 * @internal
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { CliError, ExitCode } from "./errors.js";
import { registerInspect } from "./inspect.js";
import { registerKeygen } from "./keygen.js";
import { registerKid } from "./kid.js";
import { registerRotationPlan } from "./rotation-plan.js";

/** The version in the package's own package.json (found upwards: the source and the build sit at different depths). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "mcp-roundtrip") return pkg.version ?? "0.0.0";
  }
  return "0.0.0";
}

const program = new Command()
  .name("mcp-roundtrip")
  .description("Key tooling for sealed requestState: generate keys, name them by key id, look inside tokens, plan a rotation.")
  .version(packageVersion())
  .showHelpAfterError("(add --help for usage)")
  .exitOverride()
  .addHelpText("after", "\nExit codes: 0 ok, 1 unexpected failure, 2 bad usage or input, 3 key id not in the ring, 4 token fails authentication.");
registerKeygen(program);
registerKid(program);
registerInspect(program);
registerRotationPlan(program);
for (const command of program.commands) command.exitOverride();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; commander already printed its usage error.
    process.exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  } else if (error instanceof CliError) {
    process.stderr.write(`mcp-roundtrip: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`mcp-roundtrip: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = ExitCode.failure;
  }
}
