// Adversarial review: a resource template with two expressions must not let a long URI stall the server.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { McpServer, UriTemplate } from "mcp-roundtrip/server";
import { pair } from "../server/helpers.js";

// The regex UriTemplate used on its own before the linear pre-check, rebuilt here as the reference.
const PATTERNS: Record<string, string> = {
  "": "([^/?#]+)",
  "+": "([^?#]+)",
  "#": "(#[^]*)?",
  ".": "((?:\\.[^/?#.]*)*)",
  "/": "((?:/[^/?#]*)*)",
  ";": "((?:;[^/?#;]*)*)",
  "?": "(\\?[^#]*)?",
  "&": "(&[^#]*)?",
};
function referenceMatches(template: string, uri: string): boolean {
  let source = "^";
  for (const piece of template.split(/(\{[^}]*\})/)) {
    if (piece.startsWith("{")) {
      const op = /^[+#./;?&]/.test(piece[1]!) ? piece[1]! : "";
      source += PATTERNS[op];
    } else source += piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`${source}$`, "u").test(uri);
}

const TEMPLATES = ["x://{a}-{b}", "x://{a}{b}", "x://{+a}/{b}.txt", "x://{a}{.b}{/c}", "x://{a}{;b}{?c}{&d}", "x://{+a}{#b}", "x://{a}-{b}-{c}"];

describe("review: UriTemplate.match with several expressions", () => {
  it("agrees with the plain regex on every URI (the pre-check only rules out what cannot match)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TEMPLATES),
        fc.array(fc.constantFrom("a", "b", "-", "/", ".", ";", "?", "&", "#", "=", "txt", "x://", "é", "\u{1F600}"), { maxLength: 14 }),
        (template, pieces) => {
          const uri = pieces.join("");
          for (const candidate of [uri, `x://${uri}`]) {
            expect(new UriTemplate(template).match(candidate) !== undefined).toBe(referenceMatches(template, candidate));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("still captures as before where it matches", () => {
    expect(new UriTemplate("x://{a}-{b}").match("x://one-two-three")).toEqual({ a: "one-two", b: "three" });
  });

  // Without the pre-check this read blocked the event loop for hours (quadratic backtracking over 1 MB).
  it("answers Resource not found for a 1 MB URI that does not fit a two-expression template", async () => {
    const mcp = new McpServer({ name: "repos-server", version: "1" });
    mcp.resource("repo://{owner}-{repo}", {}, (uri) => `read ${uri}`);
    const error = await pair(mcp).error("resources/read", { uri: `repo://${"a-".repeat(500_000)}/` });
    expect(error).toMatchObject({ code: -32602, message: "Resource not found" });
  });
});
