// Tiny helper shared by the npm scripts: run a command, inherit stdio, fail loudly.
import { spawnSync } from "node:child_process";

/**
 * Runs `command args…` with inherited stdio and exits this process with the
 * child's status when it fails, naming the step that failed.
 */
export function run(step, command, args, options = {}) {
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.error) {
    console.error(`\n✗ ${step}: could not start ${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`\n✗ ${step} failed (exit ${result.status ?? result.signal}) after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.error(`✓ ${step} (${seconds}s)`);
}

/** Path of a binary installed in node_modules/.bin. */
export function bin(name) {
  return new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
}
