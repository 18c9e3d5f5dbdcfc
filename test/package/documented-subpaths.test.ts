// Every `mcp-roundtrip/<subpath>` a reader is told to import, in README.md,
// docs/ and the newest changelog section (with the pending changesets, which
// become the next one), resolves through package.json "exports" to a built
// file. A renamed or dropped entry point then fails here, naming the doc and
// line that still sends readers to it.
//
// Not counted: the old subpaths a migration note names on purpose (a line that
// says "0.1.0", the first column of a table headed "0.1.0 import"), a
// changelog section that opens by saying it describes a layout since replaced,
// and the few strings below that contain the package's name without being an
// import.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

/** Mentions that are not imports: doc → the exact strings, each with why. */
const NOT_IMPORTS: Record<string, Record<string, string>> = {
  "docs/codegen.md": {
    "mcp-roundtrip/schema": "the schema cache folder under the user cache directory",
    "mcp-roundtrip/types/2027-01-01": "the entry a revision not yet added would get",
  },
  "docs/internals.md": { "mcp-roundtrip/needs": "the version tag of the sealed needs state (`mcp-roundtrip/needs@1`)" },
};

/** One mention of a subpath: where it is and what it names. */
interface Mention {
  doc: string;
  line: number;
  specifier: string;
}

/** `mcp-roundtrip/…` not preceded by a path or URL character (`node_modules/mcp-roundtrip/…`, `github.com/mcp-roundtrip/…`). */
const SPECIFIER = /(?<![\w./@-])mcp-roundtrip\/[\w<>*.-]+(?:\/[\w<>*.-]+)*/g;

/** The mentions of `text` (from `doc`, whose first line is `firstLine`) that tell a reader what to import. */
function mentionsOf(text: string, doc: string, firstLine = 1): Mention[] {
  const mentions: Mention[] = [];
  let oldImportTable = false;
  text.split("\n").forEach((line, index) => {
    const row = line.trim();
    if (!row.startsWith("|")) oldImportTable = false;
    else if (/^\|\s*0\.1\.0 import\s*\|/.test(row)) oldImportTable = true;
    // A migration note names the old subpaths on purpose.
    if (/\b0\.1\.0\b/.test(line)) return;
    const checked = oldImportTable ? row.split("|").slice(2).join("|") : line;
    for (const match of checked.matchAll(SPECIFIER)) {
      const specifier = match[0].replace(/[.]+$/, "");
      if (NOT_IMPORTS[doc]?.[specifier] !== undefined) continue;
      mentions.push({ doc, line: firstLine + index, specifier });
    }
  });
  return mentions;
}

/** The newest section of CHANGELOG.md (from its first `## ` heading to the next), unless it says it describes a replaced layout. */
function newestChangelogSection(changelog: string): { text: string; firstLine: number } | undefined {
  const lines = changelog.split("\n");
  const start = lines.findIndex((line) => line.startsWith("## "));
  if (start === -1) return undefined;
  const length = lines.slice(start + 1).findIndex((line) => line.startsWith("## "));
  const section = lines.slice(start, length === -1 ? undefined : start + 1 + length);
  const note = section.slice(1).find((line) => line.trim() !== "");
  if (note !== undefined && /^> This section describes \d+\.\d+\.\d+, before/.test(note)) return undefined;
  return { text: section.join("\n"), firstLine: start + 1 };
}

type Target = string | Record<string, string>;

/**
 * The files `specifier` resolves to through `exports` (one per condition), as
 * Node matches subpaths: an exact key, else a `*` pattern. A placeholder in the
 * mention (`types/<revision>`) must meet a pattern, and no file is checked for it.
 * Returns undefined when nothing matches.
 */
function resolveThroughExports(exports: Record<string, Target>, specifier: string): string[] | undefined {
  const subpath = `./${specifier.slice("mcp-roundtrip/".length)}`;
  const filesOf = (target: Target, star?: string) =>
    (typeof target === "string" ? [target] : Object.values(target)).map((file) => (star === undefined ? file : file.replaceAll("*", star)));
  const placeholder = /<[^>]+>|\*/.test(subpath);
  if (!placeholder && exports[subpath] !== undefined) return filesOf(exports[subpath]);
  for (const [key, target] of Object.entries(exports)) {
    if (!key.includes("*")) continue;
    const [before, after] = key.split("*") as [string, string];
    if (!subpath.startsWith(before) || !subpath.endsWith(after) || subpath.length <= before.length + after.length) continue;
    const star = subpath.slice(before.length, subpath.length - after.length);
    return placeholder ? [] : filesOf(target, star);
  }
  return undefined;
}

const exportsMap = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, Target> }).exports;
const docs = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const changesets = readdirSync(join(root, ".changeset")).filter((name) => name.endsWith(".md") && name !== "README.md");

function allMentions(): Mention[] {
  const mentions = docs.flatMap((doc) => mentionsOf(readFileSync(join(root, doc), "utf8"), doc));
  const newest = newestChangelogSection(readFileSync(join(root, "CHANGELOG.md"), "utf8"));
  if (newest !== undefined) mentions.push(...mentionsOf(newest.text, "CHANGELOG.md", newest.firstLine));
  for (const name of changesets) mentions.push(...mentionsOf(readFileSync(join(root, ".changeset", name), "utf8"), `.changeset/${name}`));
  return mentions;
}

describe("the subpaths the docs name", () => {
  beforeAll(() => ensureBuilt("runtime/entries/server.js"), 180_000);

  it("each resolve through package.json exports to files the build has", () => {
    const mentions = allMentions();
    expect(mentions.length).toBeGreaterThan(100);
    const broken = mentions.flatMap(({ doc, line, specifier }) => {
      const files = resolveThroughExports(exportsMap, specifier);
      if (files === undefined) return [`${doc}:${line} ${specifier}: no entry of package.json "exports" matches`];
      const missing = files.filter((file) => !existsSync(join(root, file)));
      return missing.length === 0 ? [] : [`${doc}:${line} ${specifier}: resolves to ${missing.join(", ")}, which the build lacks`];
    });
    expect(broken, broken.join("\n")).toEqual([]);
  });

  it("skips only what a migration note names on purpose", () => {
    const note = [
      "Moving from 0.1.0's `mcp-roundtrip/http`?",
      "| 0.1.0 import | 0.2.0 import |",
      "|---|---|",
      "| `mcp-roundtrip/redis` | `mcp-roundtrip/ext/redis` |",
      "",
      "Use `mcp-roundtrip/http`.",
    ];
    expect(mentionsOf(note.join("\n"), "x.md").map(({ line, specifier }) => `${line} ${specifier}`)).toEqual(["4 mcp-roundtrip/ext/redis", "6 mcp-roundtrip/http"]);
    expect(resolveThroughExports(exportsMap, "mcp-roundtrip/http")).toBeUndefined();
    expect(resolveThroughExports(exportsMap, "mcp-roundtrip/types/<revision>")).toEqual([]);
    expect(resolveThroughExports(exportsMap, "mcp-roundtrip/types/2025-11-25")).toContain("./dist/generated/2025-11-25/index.js");
  });
});
