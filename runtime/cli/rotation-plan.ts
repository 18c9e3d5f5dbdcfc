/**
 * `mcp-roundtrip rotation-plan --ttl S`: the three key-ring values of a
 * rotation and the gates and waits between them. Each phase must be live on
 * every instance before the next starts; phase 3 waits one ttl (plus the
 * clock skew) after phase 2 is everywhere, so no token minted under the old
 * key is still accepted anywhere.
 *
 * @module
 * @internal
 */
import type { Command } from "commander";
import { DEFAULT_KEYS_ENV, decodeKeyEntry, kidHex } from "../state/primitives/key-sources.js";
import { selectBackend } from "../state/primitives/select-backend.js";
import { CliError } from "./errors.js";

/** One phase of the plan. @internal */
interface RotationPhase {
  phase: 1 | 2 | 3;
  what: string;
  value: string;
  mints: string;
  verifies: string[];
  /** What must hold before the next phase may start. */
  gate: string;
  /** Seconds to wait after the gate holds, before the next phase. */
  waitSeconds: number;
}

/** Builds the plan from the old and new entries. @internal */
function rotationPlan(oldEntry: string, newEntry: string, ttl: number, skew: number, variable: string): RotationPhase[] {
  const backend = selectBackend("auto");
  const oldId = kidHex(backend, decodeKeyEntry(oldEntry, "--old"));
  const newId = kidHex(backend, decodeKeyEntry(newEntry, "--new"));
  if (oldId === newId) throw new CliError("--old and --new are the same key");
  const logLine = (mints: string, verifies: string[]) => `"requestState key ring: mints with ${mints}; verifies ${verifies.join(", ")}"`;
  return [
    {
      phase: 1,
      what: "every instance learns the new key; the old one still mints",
      value: `${variable}=${oldEntry},${newEntry}`,
      mints: oldId,
      verifies: [oldId, newId],
      gate: `every instance restarted and logged ${logLine(oldId, [oldId, newId])}`,
      waitSeconds: 0,
    },
    {
      phase: 2,
      what: "the new key mints; tokens of the old one still verify",
      value: `${variable}=${newEntry},${oldEntry}`,
      mints: newId,
      verifies: [newId, oldId],
      gate: `every instance restarted and logged ${logLine(newId, [newId, oldId])}`,
      waitSeconds: ttl + skew,
    },
    {
      phase: 3,
      what: "the old key is retired",
      value: `${variable}=${newEntry}`,
      mints: newId,
      verifies: [newId],
      gate: `every instance restarted and logged ${logLine(newId, [newId])}; rejections naming key id ${oldId} mean a token outlived the wait`,
      waitSeconds: 0,
    },
  ];
}

function currentFirstEntry(variable: string): string | undefined {
  const value = process.env[variable];
  if (value === undefined || value.trim() === "") return undefined;
  return value
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .find((entry) => entry !== "" && !entry.startsWith("#"));
}

/** Adds `rotation-plan` to the program. @internal */
export function registerRotationPlan(program: Command): void {
  program
    .command("rotation-plan")
    .description("print the three key-ring values of a key rotation, and the gates and waits between the phases")
    .requiredOption("--ttl <seconds>", "the servers' requestState ttl (RequestStateSecurity ttl; default there 600)")
    .option("--old <key>", "the key in use now (default: the first entry of the variable)")
    .option("--new <key>", "the key to move to (default: a fresh one)")
    .option("--skew <seconds>", "the servers' clockSkewSeconds", "60")
    .option("--variable <name>", "the environment variable the servers read", DEFAULT_KEYS_ENV)
    .option("--json", "print the plan as JSON")
    .action((options: { ttl: string; old?: string; new?: string; skew: string; variable: string; json?: boolean }) => {
      const ttl = Number(options.ttl);
      const skew = Number(options.skew);
      if (!Number.isFinite(ttl) || ttl <= 0) throw new CliError(`--ttl must be a positive number of seconds, got ${JSON.stringify(options.ttl)}`);
      if (!Number.isFinite(skew) || skew < 0) throw new CliError(`--skew must be a number of seconds ≥ 0, got ${JSON.stringify(options.skew)}`);
      const oldEntry = options.old ?? currentFirstEntry(options.variable);
      if (oldEntry === undefined) throw new CliError(`give --old <key>, or set ${options.variable} to the ring in use now`);
      const newEntry = options.new ?? `base64url:${Buffer.from(selectBackend("auto").randomBytes(32)).toString("base64url")}`;
      let plan: RotationPhase[];
      try {
        plan = rotationPlan(oldEntry, newEntry, ttl, skew, options.variable);
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError((error as Error).message, undefined, { cause: error });
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
        return;
      }
      const out: string[] = [
        `Key rotation: ${plan[0]!.mints} → ${plan[2]!.mints} (ttl ${ttl} s, clock skew ${skew} s). Each phase is a rolling restart;`,
        "the next phase starts only once the gate holds on EVERY instance. The values below hold secrets: keep them out of logs.",
        "",
      ];
      for (const phase of plan) {
        out.push(`Phase ${phase.phase}: ${phase.what}`, `  ${phase.value}`, `  gate: ${phase.gate}`);
        if (phase.waitSeconds > 0)
          out.push(`  then wait ${phase.waitSeconds} s (ttl + skew) before phase ${phase.phase + 1}: tokens minted under the old key live that long`);
        out.push("");
      }
      out.push(
        "Check a phase from outside: npx mcp-roundtrip kid --keys-env " +
          options.variable +
          " on each host; npx mcp-roundtrip inspect <token> names the key a token was minted under.",
      );
      process.stdout.write(`${out.join("\n")}\n`);
    });
}
