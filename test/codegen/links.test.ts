// The schema's descriptions fuse link text onto the target
// (`{@link CallToolRequesttools/call}`); the emitter puts the pipe back so
// the generated TSDoc links resolve (the API reference checks every one).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repairFusedLinks } from "../../codegen/emit-types.js";
import { PINNED_REVISIONS, REPO_ROOT } from "../support/schema.js";

const definitions = new Set(["CallToolRequest", "ListResourceTemplatesRequest", "ListResourcesRequest", "Result"]);

describe("repairFusedLinks", () => {
  it("splits a fused target at the longest definition name followed by a method", () => {
    expect(repairFusedLinks("for a {@link CallToolRequesttools/call} request", definitions)).toBe("for a {@link CallToolRequest | tools/call} request");
    expect(repairFusedLinks("{@link ListResourceTemplatesRequestresources/templates/list}", definitions)).toBe(
      "{@link ListResourceTemplatesRequest | resources/templates/list}",
    );
  });

  it("leaves links to a definition, piped links and unknown targets as written", () => {
    const untouched = "{@link Result} {@link CallToolRequest | tools/call} {@link Nothingtools/call} {@link CallToolRequestParams}";
    expect(repairFusedLinks(untouched, definitions)).toBe(untouched);
  });

  it("splits a target fused with text that cannot continue a name", () => {
    const defs = new Set(["MetaObject", "Tool"]);
    expect(repairFusedLinks("{@link MetaObject`_meta` key naming rules}", defs)).toBe("{@link MetaObject | `_meta` key naming rules}");
    expect(repairFusedLinks("{@link Tool.outputSchema} {@link Toolbox}", defs)).toBe("{@link Tool.outputSchema} {@link Toolbox}");
  });

  it.each(PINNED_REVISIONS)("leaves every link of the generated %s types on a definition or one of its members", (revision) => {
    const generated = readFileSync(join(REPO_ROOT, "generated", revision, "types.ts"), "utf8");
    const declared = new Set([...generated.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]!));
    const targets = [...generated.matchAll(/\{@link ([^|}]+?)\s*(?:\|[^}]*)?\}/g)].map((match) => match[1]!);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !declared.has(target.split(".")[0]!))).toEqual([]);
  });
});
