// The doc tests' own machinery, proven able to fail: broken snippets planted in
// a scratch markdown file are reported with that file's name and the line of
// the markdown the error is on, and blocks are pulled out exactly as written.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { extractSnippets, formatDiagnostic, snippetsOf, typecheckSnippets, type TypecheckResult } from "./doc-snippets.js";

describe("extractSnippets", () => {
  it("returns every fenced block with its language and the line its code starts on", () => {
    const markdown = [
      "# Title", //                                  1
      "", //                                         2
      "```ts", //                                    3
      'const a = "one";', //                         4
      "```", //                                      5
      "Text.", //                                    6
      "  ```sh", //                                  7: indented, in a list item
      "  npm test", //                               8
      "  ```", //                                    9
      "````text", //                                10: a longer fence holds a shorter one
      "```ts", //                                   11
      "````", //                                    12
      "~~~ typescript", //                          13
      "let b = 2;", //                              14
      "~~~", //                                     15
    ].join("\n");
    expect(extractSnippets(markdown, "x.md")).toEqual([
      { doc: "x.md", line: 4, lang: "ts", code: 'const a = "one";' },
      { doc: "x.md", line: 8, lang: "sh", code: "npm test" },
      { doc: "x.md", line: 11, lang: "text", code: "```ts" },
      { doc: "x.md", line: 14, lang: "typescript", code: "let b = 2;" },
    ]);
  });

  it("refuses a fence that is never closed, naming the file and the line it opened on", () => {
    expect(() => extractSnippets("one\n\n```ts\nconst a = 1;\n", "docs/open.md")).toThrow("docs/open.md:3: a code fence opened here is never closed");
  });

  it("places every block of any markdown at its own lines", () => {
    const line = fc.stringMatching(/^[a-z =;(){}."]{0,20}$/);
    const block = fc.record({ lang: fc.constantFrom("ts", "sh", "json", "text", ""), code: fc.array(line, { minLength: 1, maxLength: 5 }) });
    const part = fc.record({ prose: fc.array(line, { maxLength: 3 }), block });
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const lines = parts.flatMap(({ prose, block }) => [...prose, "```" + block.lang, ...block.code, "```"]);
        const snippets = extractSnippets(lines.join("\n"), "p.md");
        expect(snippets.map(({ lang, code }) => ({ lang, code }))).toEqual(parts.map(({ block }) => ({ lang: block.lang, code: block.code.join("\n") })));
        for (const [index, snippet] of snippets.entries()) expect(lines[snippet.line - 1]).toBe(parts[index]!.block.code[0]);
      }),
    );
  });
});

describe("typecheckSnippets, on planted snippets", () => {
  let docsDir: string;
  let result: TypecheckResult;
  const planted = [
    "# Planted", //                                                                   1
    "", //                                                                            2
    "```ts", //                                                                       3
    'import { McpServer } from "mcp-roundtrip/server";', //                           4
    'const server = new McpServer({ name: "ok", version: "1.0.0" });', //             5
    "```", //                                                                         6
    "", //                                                                            7
    "```ts", //                                                                       8
    'import { McpServer } from "mcp-roundtrip/server";', //                           9
    'const server = new McpServer({ name: "broken", version: "1.0.0" });', //        10
    'server.tool("deploy", { inputSchema: confirmForm }, () => ({ content: [] }));', // 11: confirmForm is defined nowhere
    "```", //                                                                        12
    "", //                                                                           13
    "```ts", //                                                                      14
    '// Inside the package only: "exports" does not offer it to users.', //          15
    'import { McpServer } from "mcp-roundtrip/dist/runtime/server/index.js";', //    16
    "```", //                                                                        17
    "", //                                                                           18
    "```sh", //                                                                      19
    "not TypeScript at all", //                                                      20
    "```", //                                                                        21
  ].join("\n");

  beforeAll(() => {
    ensureBuilt("runtime/entries/server.js");
    docsDir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-planted-"));
    writeFileSync(join(docsDir, "planted.md"), planted);
    result = typecheckSnippets(snippetsOf(docsDir, ["planted.md"]), {
      packageRoot: root,
      workDir: join(root, "node_modules", ".cache", "mcp-roundtrip-doc-snippets-planted"),
    });
  }, 180_000);
  afterAll(() => rmSync(docsDir, { recursive: true, force: true }));

  it("compiles the TypeScript blocks only, each as its own module", () => {
    expect(result.modules).toBe(3);
  });

  it("reports an undefined name at the markdown file and line it is on", () => {
    expect(result.diagnostics.map(formatDiagnostic)).toContain("planted.md:11:38 TS2304 Cannot find name 'confirmForm'.");
  });

  it("resolves mcp-roundtrip through the package's exports, as a user's project does", () => {
    const deep = result.diagnostics.filter((d) => d.line === 16);
    expect(deep.map((d) => d.code)).toEqual(["TS2307"]);
    expect(deep[0]!.message).toContain("mcp-roundtrip/dist/runtime/server/index.js");
  });

  it("reports nothing for a block that compiles", () => {
    expect(result.diagnostics.filter((d) => d.line <= 6)).toEqual([]);
    expect(result.diagnostics.map((d) => d.line).sort()).toEqual([11, 16]);
  });
});
