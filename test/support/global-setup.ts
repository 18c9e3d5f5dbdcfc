// vitest globalSetup: the published schema files must be there before any test
// runs. Without them the run stops at once with one line saying how to provide
// them (never a silent skip of the tests that need them).
import { ensurePublishedFiles } from "./schema.js";

export default async function requirePublishedFiles(): Promise<void> {
  try {
    await ensurePublishedFiles();
  } catch (error) {
    // Exit rather than throw: vitest would bury a thrown setup error under
    // "No test files found" and a banner; no test process has started yet.
    process.stderr.write(`\nvitest: the MCP schema files are missing: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
