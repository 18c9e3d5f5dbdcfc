import { describe, expect, it } from "vitest";
import { validate } from "mcp-roundtrip/validate";
import { PINNED_REVISIONS, publishedExamples } from "../support/schema.js";

/** Every pinned example of every revision (a revision pins none: it has no cases). */
const cases = (
  await Promise.all(
    PINNED_REVISIONS.map(async (revision) =>
      (await publishedExamples(revision)).map(({ definition, name, value }) => [revision, definition, `${name}.json`, value] as const),
    ),
  )
).flat();

describe("the spec's example messages", () => {
  it("are all found (129 of 2026-07-28)", () => {
    expect(cases.filter(([revision]) => revision === "2026-07-28")).toHaveLength(129);
  });

  it.each(cases)("%s %s / %s validates against its definition", (revision, definition, _file, value) => {
    const checked = validate(definition, value, { revision: revision as never });
    expect(checked.ok ? "valid" : checked.message).toBe("valid");
  });
});
