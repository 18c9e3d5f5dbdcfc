import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A record of the last generation: a key over everything that shapes the
 * output (the generator's own code, the schema, the overlay, the generator
 * libraries' versions) and the sha256 of each file written. `--check` trusts
 * it only when both still match, so a hand edit, a new schema or a changed
 * generator always leads to a full regeneration; it lives in the gitignored
 * .codegen-out/ and is never committed.
 */
interface Stamp {
  key: string;
  files: Record<string, string>;
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

function hashTree(dir: string, hash: ReturnType<typeof createHash>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) hashTree(path, hash);
    else if (/\.(js|ts)$/.test(entry.name) && !entry.name.endsWith(".test.ts")) hash.update(entry.name).update(readFileSync(path));
  }
}

function packageVersion(root: string, name: string): string {
  const path = join(root, "node_modules", name, "package.json");
  return existsSync(path) ? String((JSON.parse(readFileSync(path, "utf8")) as { version?: string }).version) : "absent";
}

/** The key over every input of one revision's generation. */
export function inputKey(root: string, revision: string, schemaSha256: string): string {
  const hash = createHash("sha256");
  hashTree(dirname(fileURLToPath(import.meta.url)), hash);
  hash.update(schemaSha256);
  hash.update(readFileSync(join(root, "schema", "overlay", `${revision}.json`)));
  for (const name of ["ajv", "json-schema-to-typescript", "ts-morph"]) hash.update(`${name}@${packageVersion(root, name)}`);
  return hash.digest("hex");
}

function stampPath(root: string, revision: string): string {
  return join(root, ".codegen-out", "stamps", `${revision}.json`);
}

/** True when the stamp's key matches and every stamped file is on disk unchanged. */
export function stampHolds(root: string, revision: string, key: string): boolean {
  const path = stampPath(root, revision);
  if (!existsSync(path)) return false;
  const stamp = JSON.parse(readFileSync(path, "utf8")) as Stamp;
  if (stamp.key !== key) return false;
  return Object.entries(stamp.files).every(([file, digest]) => {
    const full = join(root, file);
    return existsSync(full) && sha256(readFileSync(full)) === digest;
  });
}

/** Records the files just generated (or just verified) under `key`. */
export function writeStamp(root: string, revision: string, key: string, files: Array<{ path: string; text: string }>): void {
  const path = stampPath(root, revision);
  mkdirSync(dirname(path), { recursive: true });
  const stamp: Stamp = { key, files: Object.fromEntries(files.map((file) => [file.path, sha256(file.text)])) };
  writeFileSync(path, JSON.stringify(stamp));
}
