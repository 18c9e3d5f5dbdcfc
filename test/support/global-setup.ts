// vitest globalSetup: the published schema files must be there before any test
// runs. Without them the run stops at once with one line saying how to provide
// them (never a silent skip of the tests that need them). It also makes the
// run's pack folder, where the first scratch project packs the tarball for
// every other one (scratch-project.ts), removed when the run ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensurePublishedFiles } from "./schema.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder of this run's own: `npm pack` writes the package there once, for every scratch project. */
    packDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  try {
    await ensurePublishedFiles();
  } catch (error) {
    // Exit rather than throw: vitest would bury a thrown setup error under
    // "No test files found" and a banner; no test process has started yet.
    process.stderr.write(`\nvitest: the MCP schema files are missing: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const packDir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-pack-"));
  project.provide("packDir", packDir);
  return () => rmSync(packDir, { recursive: true, force: true });
}
