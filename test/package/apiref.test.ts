// The API reference check (scripts/docs.mjs --check, a step of npm test) can
// fail: it is run, with the same options, on a tiny package that plants one
// undocumented export, one broken {@link} and one signature naming a type no
// entry exports, and each is reported by name. A clean twin passes, so the
// failures come from the plants and not from the set-up.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../client/ensure-built.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A one-entry package whose exports point at dist/index.d.ts, compiled from `source` (index.ts). */
function fixturePackage(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-apiref-"));
  dirs.push(dir);
  const exports = { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "apiref-fixture", version: "1.0.0", type: "module", exports }));
  const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: [], outDir: "dist" };
  writeFileSync(join(dir, "tsconfig.build.json"), JSON.stringify({ compilerOptions, include: ["index.ts"] }));
  writeFileSync(join(dir, "index.ts"), source);
  return dir;
}

/** Runs the repo's check on the package in `dir`; returns its exit status and its output without colours. */
function checkApiReference(dir: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(root, "scripts/docs.mjs"), "--check"], { cwd: dir, encoding: "utf8" });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colour codes (ESC [ ... m) from the tool's output
  return { status: run.status, output: `${run.stdout}${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, "") };
}

const CLEAN = `
/** Options of {@link plantedDocumented}: how loud to be. */
export interface PlantedOptions {
  /** Louder when true. */
  loud: boolean;
}

/**
 * Returns its argument, so the fixture has a documented function.
 *
 * @param options - see {@link PlantedOptions}
 */
export function plantedDocumented(options: PlantedOptions): PlantedOptions {
  return options;
}
`;

describe("the API reference check", () => {
  it("passes a package whose every export is documented and every link resolves", () => {
    const result = checkApiReference(fixturePackage(CLEAN));
    expect(result.output).not.toMatch(/\[(warning|error)\]/);
    expect(result.status, result.output).toBe(0);
  }, 60_000);

  it("fails on an undocumented export, a broken {@link} and an unexported referenced type, naming each", () => {
    const planted = `${CLEAN}
export const plantedUndocumented = 1;

/** Links to {@link plantedMissingTarget}, which does not exist. */
export const plantedBrokenLink = 2;

interface PlantedHidden {
  /** Never exported. */
  value: number;
}

/** Returns a type no entry exports. */
export function plantedLeak(): PlantedHidden {
  return { value: 3 };
}
`;
    const result = checkApiReference(fixturePackage(planted));
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/plantedUndocumented \(Variable\), defined in .*, does not have any documentation/);
    expect(result.output).toMatch(/Failed to resolve link to "plantedMissingTarget" in comment for plantedBrokenLink/);
    expect(result.output).toMatch(/PlantedHidden, defined in .*, is referenced by plantedLeak but not included in the documentation/);
    expect(result.output).toMatch(/✗ API reference: 3 problem\(s\)/);
  }, 60_000);
});
