import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UriTemplate } from "mcp-roundtrip/server";

// RFC 6570 §3.2 examples (the variables of its section 3.2).
const VARS = {
  var: "value",
  hello: "Hello World!",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  x: "1024",
  y: "768",
  empty: "",
};

describe("UriTemplate.expand (RFC 6570 examples)", () => {
  it.each([
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["{#hello}", "#Hello%20World!"],
    ["map?{x,y}", "map?1024,768"],
    ["{x,hello,y}", "1024,Hello%20World%21,768"],
    ["{.var}", ".value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{var:3}", "val"],
    ["{list}", "red,green,blue"],
    ["{list*}", "red,green,blue"],
    ["{/list*}", "/red/green/blue"],
    ["{?list*}", "?list=red&list=green&list=blue"],
    ["{?undef}", ""],
  ])("%s → %s", (template, expected) => {
    expect(new UriTemplate(template).expand(VARS)).toBe(expected);
  });
});

describe("UriTemplate.match", () => {
  it.each([
    ["file:///{+path}", "file:///src/index.ts", { path: "src/index.ts" }],
    ["users/{id}", "users/42", { id: "42" }],
    ["users/{id}", "users/a%2Fb", { id: "a/b" }],
    ["repo://{owner}/{repo}/issues{?state,label}", "repo://octo/cat/issues?label=bug&state=open", { owner: "octo", repo: "cat", state: "open", label: "bug" }],
    ["repo://{owner}/{repo}/issues{?state}", "repo://octo/cat/issues", { owner: "octo", repo: "cat" }],
    ["files{/path*}", "files/a/b/c", { path: ["a", "b", "c"] }],
    ["report://{year}/summary", "report://2025/summary", { year: "2025" }],
    ["doc{.ext}", "doc.md", { ext: "md" }],
  ])("%s matches %s", (template, uri, variables) => {
    expect(new UriTemplate(template).match(uri)).toEqual(variables);
  });

  it.each([
    ["users/{id}", "users/"],
    ["users/{id}", "users/1/2"],
    ["users/{id}", "groups/1"],
    ["report://{year}/summary", "report://2025/details"],
    ["users/{id}", "users/%E0%A4%A"],
  ])("%s does not match %s", (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
  });

  it("round-trips expand → match for simple, path, query and reserved variables", () => {
    const text = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(text, text, text, (owner, name, state) => {
        const template = new UriTemplate("repo://{owner}/items{/name}{?state}");
        expect(template.match(template.expand({ owner, name, state }))).toEqual({ owner, name, state });
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).filter((s) => !/[?#%]/.test(s)),
        (path) => {
          const template = new UriTemplate("file:///{+path}");
          expect(template.match(template.expand({ path }))).toEqual({ path });
        },
      ),
    );
  });

  it("rejects malformed templates with a TypeError", () => {
    for (const bad of ["x/{a", "x/}a", "x/{a b}", "x/{=a}", "x/{a:0}", 42 as unknown as string]) {
      expect(() => new UriTemplate(bad)).toThrow(TypeError);
    }
  });

  it("lists variable names in order", () => {
    expect(new UriTemplate("x://{a}/{+b}{?c,d}").variableNames).toEqual(["a", "b", "c", "d"]);
  });
});
