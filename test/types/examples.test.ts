// Every example message the spec publishes, of every pinned revision, is a
// value of its generated type: written as a TypeScript literal (so excess
// properties count, as in a user's code) and typechecked in one tsc run.
// The validators accept the same examples (test/validate/examples.test.ts);
// this keeps the types from being narrower than the schema.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PINNED_REVISIONS, publishedExamples, REPO_ROOT } from "../support/schema.js";

/**
 * Examples that do not fit their type on purpose, by name (in whichever revision publishes them),
 * each with the message tsc must give: a fix upstream shows up here as a known misfit that no
 * revision has any more, to drop.
 */
const KNOWN: Record<string, { message: RegExp; why: string }> = {
  "ListRootsRequest/list-roots-request.json": {
    message: /'"id"' does not exist in type 'ListRootsRequest'/,
    why: "a 2025-style request with an `id`: a 2026-07-28 input request rides inside an InputRequiredResult and has none. The schema admits unknown members; the generated types are closed objects by design, so a literal with an extra member is refused.",
  },
  "ReadResourceResultResponse/read-resource-result-response.json": {
    message: /is missing the following properties from type 'ReadResourceResult': cacheScope, ttlMs/,
    why: "omits the caching hints a server MUST send: the validators accept their absence (overlay optional-on-receipt), the types keep them required so servers built on them send them.",
  },
};

const work = mkdtempSync(join(tmpdir(), "mcp-example-types-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One example, where it sits in the probe file. */
interface Placed {
  revision: string;
  example: string;
  file: string;
  firstLine: number;
  lastLine: number;
}

const placed: Placed[] = [];
const probes: string[] = [];
for (const revision of PINNED_REVISIONS) {
  const examples = await publishedExamples(revision);
  if (examples.length === 0) continue;
  const file = `examples-${revision}.ts`;
  const lines = [`import type * as T from ${JSON.stringify(join(REPO_ROOT, "generated", revision, "types.js"))};`, ""];
  examples.forEach(({ definition, name, value }, index) => {
    const literal = JSON.stringify(value, null, 2).split("\n");
    const firstLine = lines.length + 1;
    lines.push(`// ${definition}/${name}.json`, `export const example${index}: T.${definition} = ${literal[0]}`, ...literal.slice(1));
    lines[lines.length - 1] += ";";
    placed.push({ revision, example: `${definition}/${name}.json`, file, firstLine, lastLine: lines.length });
  });
  writeFileSync(join(work, file), `${lines.join("\n")}\n`);
  probes.push(file);
}
writeFileSync(
  join(work, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", skipLibCheck: true, types: [] },
    files: probes,
  }),
);

describe("the spec's example messages, typed", () => {
  it("cover every revision that pins examples (129 of 2026-07-28)", () => {
    expect(placed.filter((entry) => entry.revision === "2026-07-28")).toHaveLength(129);
  });

  it("each typecheck as their definition's generated type", () => {
    const tsc = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["-p", work, "--pretty", "false"], { cwd: work, encoding: "utf8" });
    expect(tsc.error).toBeUndefined();
    // One diagnostic may span lines (tsc's elaboration): each is kept with the example its first line points into.
    const failures = new Map<string, string>();
    let last = "(tsc)";
    for (const line of `${tsc.stdout}${tsc.stderr}`.split("\n").filter((text) => text.trim() !== "")) {
      const at = /^(?<file>[^(]+)\((?<line>\d+),\d+\): (?<message>.*)$/.exec(line)?.groups;
      if (at) {
        const entry = placed.find(
          (candidate) => at.file!.endsWith(candidate.file) && candidate.firstLine <= Number(at.line) && Number(at.line) <= candidate.lastLine,
        );
        last = entry ? `${entry.revision} ${entry.example}` : line;
      }
      failures.set(last, `${failures.get(last) ?? ""}${line}\n`);
    }
    for (const [example, { message, why }] of Object.entries(KNOWN)) {
      const misfits = placed.filter((entry) => entry.example === example).map((entry) => `${entry.revision} ${example}`);
      const failing = misfits.filter((key) => failures.has(key));
      expect(failing, `${example} typechecks in every revision now: drop it from KNOWN (it was there because it was ${why})`).not.toEqual([]);
      for (const key of failing) {
        expect(failures.get(key)).toMatch(message);
        failures.delete(key);
      }
    }
    expect([...failures].map(([example, message]) => `${example}: ${message}`)).toEqual([]);
  }, 60_000);
});
