// The doc tests: every ```ts block of README.md and docs/*.md compiles, on its
// own, against the built package as a user's project resolves it. A snippet
// that uses a name it does not define or import, or that drifts from the API,
// fails here with the doc's file and line.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { formatDiagnostic, isTypeScript, snippetsOf, typecheckSnippets, type TypecheckResult } from "./doc-snippets.js";

const DOCS = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];
const snippets = snippetsOf(root, DOCS);

describe("doc snippets", () => {
  let result: TypecheckResult;
  beforeAll(() => {
    ensureBuilt("runtime/entries/server.js");
    result = typecheckSnippets(snippets, { packageRoot: root, workDir: join(root, "node_modules", ".cache", "mcp-roundtrip-doc-snippets") });
    console.log(`doc snippets: ${result.modules} modules typechecked in ${result.seconds.toFixed(1)}s`);
  }, 180_000);

  it("finds the TypeScript blocks of the README and of docs/", () => {
    expect(snippets.filter((s) => s.doc === "README.md" && isTypeScript(s)).length).toBeGreaterThanOrEqual(10);
    expect(snippets.filter((s) => s.doc !== "README.md" && isTypeScript(s)).length).toBeGreaterThanOrEqual(20);
  });

  // A bare fence could hide TypeScript from the check; every block says what it holds.
  it("names a language on every fence", () => {
    const bare = snippets.filter((s) => s.lang === "").map((s) => `${s.doc}:${s.line - 1}`);
    expect(bare, "give these fences a language (```ts to compile, ```text, ```sh, ```json otherwise)").toEqual([]);
  });

  it.each(DOCS)("every ts block of %s compiles against the built package", (doc) => {
    const errors = result.diagnostics.filter((d) => d.doc === doc || d.doc === "(tsc)").map(formatDiagnostic);
    expect(errors, errors.join("\n")).toEqual([]);
  });
});
