// System tests need programs the npm install does not bring (nginx,
// redis-server). Where they are missing (a fresh laptop) such a test is
// skipped with one loud line saying what to install; with
// MCP_REQUIRE_SYSTEM_TESTS=1 (CI sets it) a missing program fails the run
// instead, so CI can never skip the drill quietly.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** Where Debian puts daemons; not on every user's PATH. */
const EXTRA_DIRS = ["/usr/sbin", "/usr/local/sbin", "/sbin"];

/** The absolute path of `program`, or `undefined` when it is not installed. */
export function findProgram(program: string): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const path = join(dir, program);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** What a system test needs, and how to install it (Debian package names). */
export interface SystemNeed {
  program: string;
  aptPackage: string;
}

/** The programs a test found, by name, when all were there. */
export type SystemPrograms = Record<string, string>;

/**
 * Looks for every program `what` needs. Returns their paths, or `undefined`
 * after printing one loud line naming the install command; throws instead
 * when `MCP_REQUIRE_SYSTEM_TESTS=1`. Use with `describe.skipIf(!programs)`.
 */
export function systemPrograms(what: string, needs: readonly SystemNeed[]): SystemPrograms | undefined {
  const found: SystemPrograms = {};
  const missing: SystemNeed[] = [];
  for (const need of needs) {
    const path = findProgram(need.program);
    if (path === undefined) missing.push(need);
    else found[need.program] = path;
  }
  if (missing.length === 0) return found;
  const install = `sudo apt-get install -y ${missing.map((need) => need.aptPackage).join(" ")}`;
  const line = `${what} needs ${missing.map((need) => need.program).join(" and ")}, not found on PATH: install with \`${install}\``;
  if (process.env.MCP_REQUIRE_SYSTEM_TESTS === "1") {
    throw new Error(`${line} (MCP_REQUIRE_SYSTEM_TESTS=1 turns this skip into a failure)`);
  }
  process.stderr.write(`\n!!!!! SKIPPED: ${line} !!!!!\n\n`);
  return undefined;
}
