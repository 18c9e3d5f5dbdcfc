// Every public export of the package's entries carries a TSDoc summary, so
// editors and generated API docs never show a bare name.
import { join } from "node:path";
import { Node, Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { root } from "../client/ensure-built.js";

const ENTRIES = [
  "runtime/index.ts",
  "runtime/server/index.ts",
  "runtime/client/index.ts",
  "runtime/state/index.ts",
  "runtime/validate/index.ts",
  "runtime/transport/http.ts",
  "runtime/transport/http-web.ts",
  "runtime/transport/http-client.ts",
  "runtime/transport/http-node.ts",
  "runtime/transport/stdio.ts",
  "runtime/transport/memory.ts",
  "runtime/ext/official/index.ts",
  "runtime/ext/redis/index.ts",
  "runtime/ext/otel/index.ts",
  "runtime/ext/jwt/index.ts",
  "runtime/ext/oauth/index.ts",
  "runtime/ext/oauth/node.ts",
];

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
