// Every public export of the package's entries carries a TSDoc summary, so
// editors and generated API docs never show a bare name.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Node, Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { root } from "../client/ensure-built.js";

interface ExportTarget {
  [condition: string]: string;
}
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, ExportTarget | string> };

/**
 * The source of every file a runtime entry resolves to, under any condition
 * (./dist/runtime/x.js and .d.ts <- runtime/x.ts): `mcp-roundtrip/client` has
 * two, the web entry and its node variant. The generated entries (./types)
 * take their comments from the schema and are checked by the API reference.
 */
const ENTRIES = [
  ...new Set(
    Object.values(pkg.exports)
      .flatMap((target) => (typeof target === "string" ? [] : Object.values(target)))
      .filter((file) => file.startsWith("./dist/runtime/"))
      .map((file) => file.replace(/^\.\/dist\//, "").replace(/(\.d)?\.ts$|\.js$/, ".ts")),
  ),
].sort();

/** The nodes a reader hovers: each visible overload of a function, else the declaration (its statement, for a variable). */
function documentedNodes(declaration: Node): Node[] {
  if (Node.isFunctionDeclaration(declaration) && declaration.getOverloads().length > 0) return declaration.getOverloads();
  if (Node.isVariableDeclaration(declaration)) return [declaration.getVariableStatementOrThrow()];
  return [declaration];
}

const summaryOf = (node: Node): string =>
  Node.isJSDocable(node)
    ? node
        .getJsDocs()
        .map((doc) => doc.getDescription().trim())
        .join("")
    : "";

describe("TSDoc on public exports", () => {
  it("knows every runtime entry", () => {
    expect(ENTRIES).toEqual([
      "runtime/entries/client-node.ts",
      "runtime/entries/client.ts",
      "runtime/entries/node.ts",
      "runtime/entries/server.ts",
      "runtime/ext/jwt/index.ts",
      "runtime/ext/oauth/index.ts",
      "runtime/ext/oauth/node.ts",
      "runtime/ext/official/index.ts",
      "runtime/ext/otel/index.ts",
      "runtime/ext/redis/index.ts",
      "runtime/state/index.ts",
      "runtime/validate/index.ts",
    ]);
  });

  it("gives every export of every entry a summary", () => {
    const project = new Project({ tsConfigFilePath: join(root, "tsconfig.json"), skipAddingFilesFromTsConfig: true });
    const missing: string[] = [];
    for (const entry of ENTRIES) {
      const file = project.addSourceFileAtPath(join(root, entry));
      project.resolveSourceFileDependencies();
      for (const [name, declarations] of file.getExportedDeclarations()) {
        for (const node of declarations.flatMap(documentedNodes)) {
          if (summaryOf(node) === "") missing.push(`${entry}: ${name} (${node.getSourceFile().getFilePath().slice(root.length)}:${node.getStartLineNumber()})`);
        }
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
