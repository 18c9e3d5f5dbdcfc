// vitest globalSetup: the published schema files must be there before any test
// runs. Without them the run stops at once with one line saying how to provide
// them (never a silent skip of the tests that need them).
import { ensurePublishedFiles } from "./schema.js";

export default async function requirePublishedFiles(): Promise<void> {
  try {
    await ensurePublishedFiles();
  } catch (error) {
    const line = `the MCP schema files are missing: ${(error as Error).message}`;
    const failure = new Error(line);
    failure.stack = line; // the line says all there is to say; a stack would only bury it
    throw failure;
  }
}
