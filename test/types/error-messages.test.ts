// What tsc says, word for word, when a typed tool is wrong: the text a developer reads in the editor. A small file
// of mistakes is typechecked in one tsc run (against the sources, as the repository's own tsconfig resolves
// mcp-roundtrip/*), and each diagnostic must name what is wrong, where it is, and not what is not.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/schema.js";

// Inside the repository (node_modules/.cache), so the probe resolves zod and @types/node as the repository does.
const cache = join(REPO_ROOT, "node_modules", ".cache");
mkdirSync(cache, { recursive: true });
const work = mkdtempSync(join(cache, "mcp-type-errors-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The probe: one mistake per marked line, each diagnostic attributed to the first marker at or above its line. */
const PROBE = `import * as z from "zod";
import { McpServer, inputRequired, needs } from "mcp-roundtrip/server";

const server = new McpServer({ name: "probe", version: "1.0.0" });
const counter = { type: "object", properties: { count: { type: "integer" }, kind: { enum: ["a", "b"] } }, required: ["count"] } as const;

// @case json-wrong-type
server.tool("a", { outputSchema: counter }, () => ({ structuredContent: { count: "4" } }));
// @case json-missing
server.tool("b", { outputSchema: counter }, () => ({ structuredContent: { kind: "a" } }));
// @case json-enum
server.tool("c", { outputSchema: counter }, () => ({ structuredContent: { count: 4, kind: "c" } }));
// @case zod-wrong-type
server.tool("d", { outputSchema: z.object({ count: z.number().int() }) }, () => ({ structuredContent: { count: "4" } }));
// @case needs-and-input-required
server.tool("e", { needs: (need) => need.add("n", () => 1) }, (_args, { n }, ctx) =>
  ctx.inputResponses === undefined ? inputRequired({ inputRequests: { q: { method: "roots/list", params: {} } } }) : { content: [{ type: "text", text: String(n) }] },
);
// @case prompt-needs-and-input-required
server.prompt("p", { needs: (need) => need.add("n", () => 1) }, (_args, { n }, ctx) =>
  ctx.inputResponses === undefined ? inputRequired({ inputRequests: { q: { method: "roots/list", params: {} } } }) : [{ role: "user", content: { type: "text", text: String(n) } }],
);
// @case template-needs-and-input-required
server.resource("r://{id}", { needs: (need) => need.add("n", () => 1) }, (_uri, { id }, { n }, ctx) =>
  ctx.inputResponses === undefined ? inputRequired({ inputRequests: { q: { method: "roots/list", params: {} } } }) : \`\${id} \${n}\`,
);
// @case static-needs
server.resource("config://app", { needs: needs().add("n", () => 1) }, () => "app");
// @case required-typo
server.tool("f", { inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["nmae"] } }, () => ({ content: [] }));
`;

writeFileSync(join(work, "probe.ts"), PROBE);
writeFileSync(
  join(work, "tsconfig.json"),
  JSON.stringify({ extends: join(REPO_ROOT, "tsconfig.json"), compilerOptions: { noEmit: true }, include: [], files: ["probe.ts"] }),
);

/** Each case's diagnostics, by the marker above the line tsc points at: `{ line, column, text }`. */
function diagnostics(): Map<string, { line: number; column: number; text: string }[]> {
  const tsc = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["-p", work, "--pretty", "false"], { cwd: work, encoding: "utf8" });
  expect(tsc.error).toBeUndefined();
  const lines = PROBE.split("\n");
  const caseAt = (line: number) => {
    for (let at = line - 1; at >= 0; at--) {
      const marker = /^\/\/ @case (\S+)/.exec(lines[at]!);
      if (marker) return marker[1]!;
    }
    return "(no case)";
  };
  const found = new Map<string, { line: number; column: number; text: string }[]>();
  let current: { line: number; column: number; text: string } | undefined;
  for (const raw of `${tsc.stdout}${tsc.stderr}`.split("\n")) {
    const at = /probe\.ts\((\d+),(\d+)\): (.*)$/.exec(raw);
    if (at) {
      current = { line: Number(at[1]), column: Number(at[2]), text: at[3]! };
      const name = caseAt(current.line);
      found.set(name, [...(found.get(name) ?? []), current]);
    } else if (current && raw.trim() !== "") current.text += `\n${raw.trim()}`;
  }
  return found;
}

const found = diagnostics();
const only = (name: string) => {
  const list = found.get(name) ?? [];
  expect(list, `${name}: exactly one diagnostic`).toHaveLength(1);
  return list[0]!;
};
/** The column where `needle` starts on the probe's `line` (1-based, as tsc counts). */
const columnOf = (line: number, needle: string) => PROBE.split("\n")[line - 1]!.indexOf(needle) + 1;

describe("tsc's message for a wrong typed tool", () => {
  it("points at the structuredContent member at fault and names it, not content or isError (JSON Schema and zod)", () => {
    for (const name of ["json-wrong-type", "zod-wrong-type"]) {
      const { line, column, text } = only(name);
      expect(column, `${name}: ${text}`).toBe(columnOf(line, `count: "4"`));
      expect(text).toBe("error TS2322: Type 'string' is not assignable to type 'number'.");
    }
    const missing = only("json-missing");
    expect(missing.text).toMatch(
      /Property 'count' is missing in type '\{ kind: "a"; \}' but required in type '\{ count: number; kind\?: "a" \| "b"( \| undefined)?; \}'/,
    );
    const wrongEnum = only("json-enum");
    expect(wrongEnum.column).toBe(columnOf(wrongEnum.line, 'kind: "c"'));
    expect(wrongEnum.text).toMatch(/^error TS2322: Type '"c"' is not assignable to type '"a" \| "b"( \| undefined)?'\.$/);
    for (const name of ["json-wrong-type", "json-missing", "json-enum", "zod-wrong-type"]) {
      expect(only(name).text).not.toMatch(/content'|isError|No overload/);
    }
  });

  it("names the fix when a handler with needs returns inputRequired(...): tool, prompt, resource template", () => {
    for (const name of ["needs-and-input-required", "prompt-needs-and-input-required", "template-needs-and-input-required"]) {
      const { text } = only(name);
      expect(text, name).toMatch(/not assignable to type 'DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired'/);
      expect(text, name).not.toMatch(/'undefined'|No overload/);
    }
  });

  it("names the fix when a static resource declares needs", () => {
    const { text } = only("static-needs");
    expect(text).toMatch(/in type 'AStaticResourceTakesNoNeedsUseATemplate'/);
    expect(text).not.toMatch(/'undefined'|No overload/);
  });

  it("points at a required entry that names no property", () => {
    const { line, column, text } = only("required-typo");
    expect(column).toBe(columnOf(line, "required"));
    expect(text).toMatch(/Type '"nmae"' is not assignable to type '"name"'/);
  });

  it("has nothing else to say", () => {
    const cases = [...PROBE.matchAll(/^\/\/ @case (\S+)$/gm)].map((marker) => marker[1]);
    expect([...found.keys()].sort()).toEqual(cases.sort());
  });
}, 60_000);
