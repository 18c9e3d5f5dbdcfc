// The README's runtime dependency table ("## Install") is what an installer gets: it names exactly package.json's
// "dependencies", one row each, and the sentence above it counts them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/schema.js";

const dependencies = Object.keys((JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const COUNTS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"];

/** The packages the first column of the README's `| dependency | loaded by | when |` table names. */
function tableNames(): string[] {
  const lines = readme.split("\n");
  const header = lines.findIndex((line) => /^\| dependency \| loaded by \| when \|$/.test(line));
  expect(header, "README.md has no `| dependency | loaded by | when |` table").toBeGreaterThan(-1);
  const rows = lines.slice(header + 2).filter((_, index, all) => all.slice(0, index + 1).every((line) => line.startsWith("|")));
  return rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

describe("README's runtime dependencies", () => {
  it("name exactly package.json's dependencies, each once", () => {
    const names = tableNames();
    expect(new Set(names).size, `named twice: ${names.join(", ")}`).toBe(names.length);
    expect([...names].sort()).toEqual([...dependencies].sort());
  });

  it("are counted in words above the table", () => {
    expect(readme).toMatch(new RegExp(`It installs ${COUNTS[dependencies.length]} runtime dependencies`));
  });
});
