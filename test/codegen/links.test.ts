// The schema's descriptions fuse link text onto the target
// (`{@link CallToolRequesttools/call}`); the emitter puts the pipe back so
// the generated TSDoc links resolve (the API reference checks every one).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repairFusedLinks } from "../../codegen/emit-types.js";

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

  it("leaves no fused link in the generated types", () => {
    const generated = readFileSync(fileURLToPath(new URL("../../generated/2026-07-28/types.ts", import.meta.url)), "utf8");
    expect(generated).toContain("{@link CallToolRequest | tools/call}");
    expect(generated.match(/\{@link [A-Z]\w*[a-z]\/[\w/]+\}/g) ?? []).toEqual([]);
  });
});
