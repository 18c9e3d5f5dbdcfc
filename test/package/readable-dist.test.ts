// The JavaScript the package ships stays readable: bundled, but never minified
// (scripts/bundle-entries.mjs), so a stack trace or an error excerpt points at
// one source line with the source's names, and the source maps still lead to
// the .ts beside it.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

/** The longest line a shipped .js file may have. */
const MAX_LINE = 1_000;

/**
 * Lines allowed past {@link MAX_LINE}, each with its reason. AJV's standalone
 * code writes each JSON Schema it embeds as one `const schemaN = {…};` line:
 * data, not code (no stack frame or thrown error points into it), copied
 * unchanged from generated/ so that dist/ matches the committed output and
 * its "Do not edit" header.
 */
const EXEMPT: readonly { file: RegExp; line: RegExp; reason: string }[] = [
  {
    file: /^dist\/generated\/[^/]+\/validators\.js$/,
    line: /^const schema\d+ = \{.*\};$/,
    reason: "an embedded JSON Schema constant AJV standalone emits on one line",
  },
];

function shippedJs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return shippedJs(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

beforeAll(() => ensureBuilt("runtime/entries/server.js"), 180_000);

describe("dist/ is readable", () => {
  it(`has no line longer than ${MAX_LINE.toLocaleString("en-US")} characters in any shipped .js file (generated schema constants excepted)`, () => {
    const files = shippedJs(join(root, "dist"));
    expect(files.length).toBeGreaterThan(100);
    const long: string[] = [];
    for (const file of files) {
      const name = relative(root, file).replaceAll("\\", "/");
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (line.length <= MAX_LINE) return;
          if (EXEMPT.some((rule) => rule.file.test(name) && rule.line.test(line))) return;
          long.push(`${name}:${index + 1} is ${line.length} characters: ${line.slice(0, 80)}…`);
        });
    }
    expect(long).toEqual([]);
  });

  it("keeps the source's names, one statement a line, and a source map beside each bundled module", () => {
    const bundled = [...shippedJs(join(root, "dist/runtime/chunks")), ...shippedJs(join(root, "dist/runtime/entries"))];
    for (const [name, source] of [
      ["McpServer", "runtime/server/mcp-server.ts"],
      ["RequestStateSecurity", "runtime/state/token/security.ts"],
      ["Client", "runtime/client/client.ts"],
    ] as const) {
      const declares = new RegExp(`^(?:var ${name} = class\\b|class ${name}\\b)`, "m");
      const files = bundled.filter((file) => declares.test(readFileSync(file, "utf8")));
      expect(files, name).toHaveLength(1);
      const code = readFileSync(files[0]!, "utf8");
      expect(code.split("\n").length, name).toBeGreaterThan(100);
      const mapFile = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
      expect(mapFile, name).toBeDefined();
      const map = JSON.parse(readFileSync(join(files[0]!, "..", mapFile!), "utf8")) as { sources: string[] };
      expect(
        map.sources.some((file) => file.endsWith(source)),
        name,
      ).toBe(true);
    }
  });
});
