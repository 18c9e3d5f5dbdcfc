import { describe, expect, it } from "vitest";
import { runExample } from "../../examples/notifications/catalog.js";

describe("examples/notifications", () => {
  it("follows the tool list through subscriptions/listen, reports progress, and cancels the second import", async () => {
    const lines: string[] = [];
    const tools = await runExample((line) => lines.push(line));
    expect(lines.slice(0, 3)).toEqual(["1/3: imported file 1", "2/3: imported file 2", "3/3: imported file 3"]);
    expect(lines[3]).toBe("second import: enough");
    // The list it re-read after the last change it heard: the first import's three tools at least.
    expect(tools).toEqual(expect.arrayContaining(["import", "lookup-1", "lookup-2", "lookup-3"]));
  });
});
