import { describe, expect, it } from "vitest";
import { validate } from "mcp-roundtrip/validate";
import { publishedExamples } from "../support/schema.js";

const cases = (await publishedExamples("2026-07-28")).map(({ definition, name, value }) => [definition, `${name}.json`, value] as const);

describe("the spec's example messages", () => {
  it("are all found (129)", () => {
    expect(cases).toHaveLength(129);
  });

  it.each(cases)("%s / %s validates against its definition", (definition, _file, value) => {
    const checked = validate(definition as never, value);
    expect(checked.ok ? "valid" : checked.message).toBe("valid");
  });
});
