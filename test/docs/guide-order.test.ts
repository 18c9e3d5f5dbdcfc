// The guide's reading order is written once, in docs/README.md; the API
// reference site lists the docs pages in that order (scripts/docs-pages.mjs).
// Each step of the path opens by saying what the reader will have at its end.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docsPagesOf, guideOrderOf } from "../../scripts/docs-pages.mjs";
import { root } from "../client/ensure-built.js";

const readme = readFileSync(join(root, "docs/README.md"), "utf8");

describe("the guide", () => {
  it("is read in the order docs/README.md lists it, and the site lists the docs pages in that order, then the rest", () => {
    const order = guideOrderOf(readme);
    expect(order.slice(0, 8)).toEqual([
      "README.md",
      "getting-started.md",
      "server.md",
      "asking-the-user.md",
      "dependencies.md",
      "both-generations.md",
      "operations.md",
      "extending.md",
    ]);
    const site = docsPagesOf(root).map((path) => path.slice(join(root, "docs/").length));
    expect(site.slice(0, order.length)).toEqual(order);
    expect(new Set(site).size).toBe(site.length);
  });

  it("has every step open by saying what the reader will have at its end", () => {
    const steps = guideOrderOf(readme).filter((page) => page !== "README.md");
    const silent = steps.filter((page) => {
      const text = readFileSync(join(root, "docs", page), "utf8");
      const opening = text.split("\n## ")[0]!;
      return !/At the end of this page/.test(opening);
    });
    expect(silent, "open these pages with what the reader will have at their end").toEqual([]);
  });
});
