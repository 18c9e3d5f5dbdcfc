import { describe, expect, it } from "vitest";
import { runExample } from "../../examples/dependencies/provision.js";

describe("examples/dependencies", () => {
  it("asks region and size in one round, then the confirmation quoting both, and provisions", async () => {
    const lines: string[] = [];
    const text = await runExample((line) => lines.push(line), { region: "ap-south-1", gb: 40, yes: true });
    expect(text).toBe("Provisioned 'orders': 40 GB in ap-south-1.");
    expect(lines.slice(0, 2).sort()).toEqual(["asked [region] Which region should the database live in?", "asked [size] How many GB does orders need?"]);
    expect(lines[2]).toBe("asked [confirm] Create orders with 40 GB in ap-south-1?");
  });

  it("a refused confirmation reaches the handler", async () => {
    expect(await runExample(() => {}, { region: "eu-west-1", gb: 1, yes: false })).toBe("Nothing provisioned.");
  });
});
