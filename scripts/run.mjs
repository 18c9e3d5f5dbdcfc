// Tiny helper shared by the npm scripts: run a command, inherit stdio, fail loudly.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

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

/**
 * Installs the pinned tools of `tools/<name>` (its own package.json and
 * package-lock.json, kept apart from the root because they need another
 * Node or TypeScript than the repo's) unless `marker`, a path inside that
 * folder, already exists. Exits naming the step when the install fails.
 */
export function ensureTools(name, marker) {
  const folder = new URL(`../tools/${name}/`, import.meta.url).pathname;
  if (existsSync(join(folder, marker))) return folder;
  console.error(`${name}: installing the pinned tools (npm ci --prefix tools/${name})…`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const installed = spawnSync(npm, ["ci", "--prefix", folder, "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (installed.status !== 0) {
    console.error(`\n✗ ${name}: could not install tools/${name} (npm ci --prefix tools/${name} exited ${installed.status ?? installed.signal})`);
    process.exit(1);
  }
  return folder;
}
