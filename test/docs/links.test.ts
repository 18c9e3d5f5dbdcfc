// The link check behind test/package/exports.test.ts: which links count, and
// when one is broken inside the packed file list.
import { describe, expect, it } from "vitest";
import { anchorOf, brokenLinks, relativeLinksOf } from "./doc-links.js";

const markdown = [
  "# Sealing `requestState`",
  "See [the server](server.md#high-level-mcpserver), [a folder](../examples/fleet/), [here](#sealing-requeststate)",
  "and [the spec](https://example.com/spec), `[not a link](in-code.md)`.",
  "```ts",
  'const link = "[nor this](in-a-block.md)";',
  "```",
].join("\n");

describe("relativeLinksOf", () => {
  it("takes relative links of the prose, resolved against the linking file, and skips URLs and code", () => {
    expect(relativeLinksOf(markdown, "docs/page.md").map(({ target, fragment }) => [target, fragment])).toEqual([
      ["docs/server.md", "high-level-mcpserver"],
      ["examples/fleet", undefined],
      ["docs/page.md", "sealing-requeststate"],
    ]);
  });
});

describe("brokenLinks", () => {
  const links = relativeLinksOf(markdown, "docs/page.md");
  const texts: Record<string, string> = { "docs/page.md": markdown, "docs/server.md": "## High-level `McpServer`\n" };

  it("accepts a file, a directory with a file under it, and a fragment naming a heading", () => {
    expect(brokenLinks(links, ["docs/page.md", "docs/server.md", "examples/fleet/main.ts"], (path) => texts[path]!)).toEqual([]);
  });

  it("names a missing file, an empty directory and a missing heading", () => {
    const broken = brokenLinks(links, ["docs/page.md", "docs/server2.md"], () => "# Other\n");
    expect(broken).toEqual([
      "docs/page.md: server.md#high-level-mcpserver (docs/server.md is not in the package)",
      "docs/page.md: ../examples/fleet/ (examples/fleet is not in the package)",
      "docs/page.md: #sealing-requeststate (docs/page.md has no heading #sealing-requeststate)",
    ]);
  });

  it("derives anchors as GitHub does", () => {
    expect(anchorOf("Moving a server from the official SDK")).toBe("moving-a-server-from-the-official-sdk");
    expect(anchorOf("Sealing `requestState`")).toBe("sealing-requeststate");
    expect(anchorOf("Keys and rotation")).toBe("keys-and-rotation");
  });
});
