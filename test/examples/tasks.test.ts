import { describe, expect, it } from "vitest";
import { runExport } from "../../examples/tasks/export.js";

describe("examples/tasks", () => {
  it("follows a task that asks a question to its result, and cancels another through its handle", async () => {
    expect(await runExport()).toEqual({ text: "Exported 1,204 orders as csv.", cancelled: true });
  });
});
