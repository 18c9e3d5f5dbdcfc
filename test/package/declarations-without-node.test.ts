// mcp-roundtrip/server and mcp-roundtrip/client are for every runtime, so their declarations (what package.json's
// "types" condition points at, in dist/) must type-check in a project without Node's types: a browser's or a worker's
// (lib es2022 + webworker, types: [], skipLibCheck off, so tsc reads every .d.ts they reach). What needs Node is in
// mcp-roundtrip/node. A second run, with the newest lib and Node's types, checks the declarations still merge there.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";

const work = mkdtempSync(join(tmpdir(), "mcp-declarations-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { types: string }> };
const ENTRIES = ["./server", "./client"] as const;

function tsc(compilerOptions: Record<string, unknown>): string {
  const config = join(work, `tsconfig-${String(compilerOptions.lib)}.json`);
  const base = { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", skipLibCheck: false };
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...base, ...compilerOptions }, files: ["probe.ts"] }));
  const run = spawnSync(join(root, "node_modules", ".bin", "tsc"), ["-p", config, "--pretty", "false"], { cwd: work, encoding: "utf8" });
  expect(run.error).toBeUndefined();
  return `${run.stdout}${run.stderr}`.trim();
}

beforeAll(() => {
  ensureBuilt("runtime/entries/server.js");
  const lines = ENTRIES.map((entry, index) => `import type * as entry${index} from ${JSON.stringify(join(root, pkg.exports[entry]!.types))};`);
  lines.push(`export type Everything = [${ENTRIES.map((_, index) => `typeof entry${index}`).join(", ")}];`);
  writeFileSync(join(work, "probe.ts"), `${lines.join("\n")}\n`);
}, 180_000);

describe("the declarations of mcp-roundtrip/server and mcp-roundtrip/client", () => {
  it("point at dist/ declarations", () => {
    expect(ENTRIES.map((entry) => pkg.exports[entry]!.types)).toEqual(["./dist/runtime/entries/server.d.ts", "./dist/runtime/entries/client-node.d.ts"]);
  });

  it("type-check without Node's types (lib es2022 + webworker, types: [], skipLibCheck: false)", () => {
    expect(tsc({ lib: ["es2022", "webworker"], types: [] })).toBe("");
  }, 60_000);

  it("type-check beside the newest lib and Node's types too (what they declare for themselves merges)", () => {
    expect(tsc({ lib: ["esnext", "dom"], types: ["node"], typeRoots: [join(root, "node_modules", "@types")] })).toBe("");
  }, 60_000);
});
