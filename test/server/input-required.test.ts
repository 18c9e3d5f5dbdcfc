import { describe, expect, it } from "vitest";
import { inputRequired, isInputRequiredResult } from "mcp-roundtrip/server";
import { validate } from "mcp-roundtrip/validate";
import { ASK_REGION } from "./helpers.js";

describe("inputRequired()", () => {
  it("builds a valid InputRequiredResult from requests, state, or both", () => {
    for (const init of [{ inputRequests: { region: ASK_REGION } }, { requestState: "s" }, { inputRequests: { region: ASK_REGION }, requestState: "" }]) {
      const result = inputRequired(init);
      expect(result.resultType).toBe("input_required");
      expect(isInputRequiredResult(result)).toBe(true);
      expect(validate("InputRequiredResult", result).ok).toBe(true);
    }
  });

  it("enforces the at-least-one rule", () => {
    expect(() => inputRequired({})).toThrow(/at least one/);
    expect(() => inputRequired({ inputRequests: {} })).toThrow(/at least one/);
  });

  it("rejects wrong types with a TypeError", () => {
    expect(() => inputRequired(null as never)).toThrow(TypeError);
    expect(() => inputRequired({ requestState: { step: 1 } as never })).toThrow(/JSON.stringify/);
    expect(() => inputRequired({ inputRequests: [] as never })).toThrow(TypeError);
  });

  it("tells complete results apart", () => {
    expect(isInputRequiredResult({ resultType: "complete", content: [] })).toBe(false);
    expect(isInputRequiredResult(null)).toBe(false);
  });
});
