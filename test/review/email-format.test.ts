// Adversarial review: the email format check on a client's elicitation answer must be linear in its length.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkElicitContent, type ElicitSchema } from "../../runtime/server/dependencies/elicitation-schema.js";

const form = { type: "object", properties: { email: { type: "string", format: "email" } } } as const satisfies ElicitSchema;
const REFERENCE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

describe("review: email format", () => {
  it("accepts exactly what the documented pattern accepts", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "@", ".", " ", "\t", "\u00a0", "é", "b"), { maxLength: 10 }), (pieces) => {
        const text = pieces.join("");
        expect(checkElicitContent(form, { email: text }).length === 0).toBe(REFERENCE.test(text));
      }),
      { numRuns: 3000 },
    );
  });

  // The regex backtracked quadratically here: a 1 MB answer blocked the event loop for most of an hour.
  it("rejects a 1 MB near-miss answer", () => {
    const issues = checkElicitContent(form, { email: `a@${"a.".repeat(500_000)}@` });
    expect(issues.map((issue) => issue.path)).toEqual(["/email"]);
  });
});
