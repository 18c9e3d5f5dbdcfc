// The house rule that keeps runtime modules readable: one job per file, and no file past 350 lines
// (split a growing file by job as part of the change that grows it; docs/internals.md names the jobs).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../client/ensure-built.js";

const MOST_LINES = 350;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("runtime/ modules", () => {
  it(`stay within ${MOST_LINES} lines each`, () => {
    const files = sources(join(root, "runtime"));
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MOST_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
