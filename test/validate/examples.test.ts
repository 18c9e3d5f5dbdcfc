import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validate } from "mcp-roundtrip/validate";

const examplesDir = fileURLToPath(new URL("../../../shared/mcp-schema/2026-07-28/examples", import.meta.url));

const cases = readdirSync(examplesDir).flatMap((definition) =>
  readdirSync(join(examplesDir, definition))
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => [definition, file] as const),
);

describe("the spec's example messages", () => {
  it("are all found (129)", () => {
    expect(cases).toHaveLength(129);
  });

  it.each(cases)("%s / %s validates against its definition", (definition, file) => {
    const value: unknown = JSON.parse(readFileSync(join(examplesDir, definition, file), "utf8"));
    const checked = validate(definition as never, value);
    expect(checked.ok ? "valid" : checked.message).toBe("valid");
  });
});
