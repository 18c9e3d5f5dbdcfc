import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { validate, validateResult } from "mcp-roundtrip/validate";
import { emitTypes } from "../../codegen/emit-types.js";
import { applyOverlay, checkOverlay, readOverlay } from "../../codegen/overlay/index.js";
import { type SchemaDocument, walkNodes } from "../../codegen/json.js";
import { PINNED_REVISIONS, publishedSchema } from "../support/schema.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const publishedSchemas: Record<string, SchemaDocument> = Object.fromEntries(
  await Promise.all(PINNED_REVISIONS.map(async (revision) => [revision, await publishedSchema(revision)] as const)),
);
/** A fresh copy of a revision's published schema. */
const published = (revision: string): SchemaDocument => structuredClone(publishedSchemas[revision]!);

const compilers = new Map<string, Ajv2020>();

/** A validator compiled straight from the published schema, to show each defect is real. */
function publishedValidator(revision: string, definition: string) {
  let ajv = compilers.get(revision);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false });
    ajv.addSchema({ $id: "urn:test:published", $defs: published(revision).$defs });
    compilers.set(revision, ajv);
  }
  return ajv.getSchema(`urn:test:published#/$defs/${definition}`)!;
}

const invalidCompleteResponse = {
  jsonrpc: "2.0",
  id: 1,
  result: { resultType: "complete", content: [{ type: "text" }] },
};

// [correction, { defect: accepted/rejected by the published schema, fixed: what the generated validators say }]
const proofs: Array<[string, { definition: string; value: unknown; publishedAccepts: boolean; revision?: "2025-11-25" }]> = [
  [
    "result-type-literals: an invalid complete result is not an InputRequiredResult",
    { definition: "CallToolResultResponse", value: invalidCompleteResponse, publishedAccepts: true },
  ],
  [
    "result-type-literals: a complete result cannot pose as input_required",
    { definition: "InputRequiredResult", value: { resultType: "complete", requestState: "s" }, publishedAccepts: true },
  ],
  [
    "at-least-one: an InputRequiredResult with neither inputRequests nor requestState",
    { definition: "InputRequiredResult", value: { resultType: "input_required" }, publishedAccepts: true },
  ],
  [
    "number-not-integer: an elicitation answer of 1.5",
    { definition: "ElicitResult", value: { action: "accept", content: { amount: 1.5 } }, publishedAccepts: false },
  ],
  [
    "number-not-integer (2025-11-25): an elicitation answer of 1.5",
    { definition: "ElicitResult", value: { action: "accept", content: { amount: 1.5 } }, publishedAccepts: false, revision: "2025-11-25" },
  ],
  ["number-not-integer: a fractional JSONValue", { definition: "JSONValue", value: { ratio: 0.25 }, publishedAccepts: false }],
  ["admit-null: JSONValue null", { definition: "JSONValue", value: null, publishedAccepts: false }],
  ["admit-null: null nested in a JSONValue", { definition: "JSONValue", value: [1, null, { a: null }], publishedAccepts: false }],
  [
    "optional-on-receipt: a resources/read result from an older server, without caching hints",
    { definition: "ReadResourceResult", value: { resultType: "complete", contents: [] }, publishedAccepts: false },
  ],
];

describe.each(proofs)("%s", (_label, { definition, value, publishedAccepts, revision }) => {
  it(`the published schema ${publishedAccepts ? "accepts" : "rejects"} it`, () => {
    expect(publishedValidator(revision ?? "2026-07-28", definition)(value)).toBe(publishedAccepts);
  });
  it(`the generated validator ${publishedAccepts ? "rejects" : "accepts"} it`, () => {
    const checked = revision ? validate(definition, value, { revision }) : validate(definition, value);
    expect(checked.ok).toBe(!publishedAccepts);
  });
});

describe("result-type-literals", () => {
  it("names the broken block, not the resultType, when a complete tools/call result is invalid", () => {
    const checked = validate("CallToolResultResponse", invalidCompleteResponse);
    expect(checked.ok ? [] : checked.issues).toEqual([{ path: "/result/content/0/text", message: "is required" }]);
  });
  it("accepts a valid InputRequiredResult as a tools/call result", () => {
    expect(validateResult("tools/call", { resultType: "input_required", requestState: "abc" }).ok).toBe(true);
  });
  it("narrows ResultType to its two literals", () => {
    expect(validate("ResultType", "complete").ok).toBe(true);
    expect(validate("ResultType", "input_required").ok).toBe(true);
    expect(validate("ResultType", "partial").ok).toBe(false);
  });
});

describe("at-least-one", () => {
  it.each([
    ["validate", () => validate("InputRequiredResult", { resultType: "input_required" })],
    ["validateResult", () => validateResult("tools/call", { resultType: "input_required" })],
  ])("says which members would do (%s)", (_label, run) => {
    const checked = run();
    expect(checked.ok ? [] : checked.issues).toEqual([{ path: "", message: 'needs at least one of "inputRequests", "requestState"' }]);
  });

  it.each([
    ["inputRequests only", { resultType: "input_required", inputRequests: {} }],
    ["requestState only", { resultType: "input_required", requestState: "s" }],
    ["both", { resultType: "input_required", inputRequests: {}, requestState: "s" }],
  ])("accepts %s", (_label, value) => {
    expect(validate("InputRequiredResult", value).ok).toBe(true);
  });
});

describe("overlay application", () => {
  const schema = published("2026-07-28");

  it("leaves the loaded schema untouched", () => {
    const before = JSON.stringify(schema);
    applyOverlay(schema, readOverlay(root, "2026-07-28"), "validators");
    expect(JSON.stringify(schema)).toBe(before);
  });

  it("applies validator-only corrections to validators alone", () => {
    const overlay = readOverlay(root, "2026-07-28");
    const types = applyOverlay(schema, overlay, "types").schema.$defs;
    const validators = applyOverlay(schema, overlay, "validators").schema.$defs;
    expect(types.InputRequiredResult!.anyOf).toBeUndefined();
    expect(validators.InputRequiredResult!.anyOf).toEqual([{ required: ["inputRequests"] }, { required: ["requestState"] }]);
    expect(types.ReadResourceResult!.required).toContain("ttlMs");
    expect(validators.ReadResourceResult!.required).not.toContain("ttlMs");
  });

  it("is what keeps json-schema-to-typescript from numbering duplicates (Annotations1…)", async () => {
    const withoutRefSiblings = readOverlay(root, "2026-07-28").filter((entry) => entry.correction !== "ref-siblings");
    const uncorrected = applyOverlay(schema, withoutRefSiblings, "types").schema;
    await expect(emitTypes("//", uncorrected)).rejects.toThrow(/surplus \[[^\]]*"Annotations1"/);
    const corrected = applyOverlay(schema, readOverlay(root, "2026-07-28"), "types").schema;
    await expect(emitTypes("//", corrected)).resolves.toMatch(/^export type EmptyResult = Result;$/m);
  }, 60_000);

  it("turns annotated $refs into plain references: tsType for types, a bare $ref for validators", () => {
    const overlay = readOverlay(root, "2026-07-28");
    const types = applyOverlay(schema, overlay, "types").schema;
    const validators = applyOverlay(schema, overlay, "validators").schema;
    for (const corrected of [types, validators]) {
      expect(JSON.stringify(corrected.$defs)).not.toMatch(/"\$ref":"[^"]+","description"/);
      expect(JSON.stringify(corrected.$defs)).not.toMatch(/"description":"[^"]*","\$ref"/);
    }
    expect(types.$defs.EmptyResult).toEqual({ tsType: "Result", description: "Common result fields." });
    expect(validators.$defs.EmptyResult).toEqual({ $ref: "#/$defs/Result" });
    expect((types.$defs.DiscoverResult!.properties as Record<string, unknown>).capabilities).toEqual({
      tsType: "ServerCapabilities",
      description: "The capabilities of the server.",
    });
  });

  it.each([
    ["an unknown correction", [{ correction: "make-it-right" }], /unknown correction "make-it-right"/],
    ["a pointer the schema no longer has", [{ correction: "number-not-integer", at: ["/$defs/Nope/type"] }], /\/\$defs\/Nope\/type does not name a schema node/],
    ["a widening that is already done", [{ correction: "number-not-integer", at: ["/$defs/Annotations/properties/priority"] }], /no integer type any more/],
    [
      "null admitted twice",
      [
        { correction: "admit-null", at: ["/$defs/JSONValue/anyOf/2"] },
        { correction: "admit-null", at: ["/$defs/JSONValue/anyOf/2"] },
      ],
      /already admits null/,
    ],
    ["a definition with a constraining sibling of $ref", [{ correction: "ref-siblings" }], null],
    ["a bad scope", [{ correction: "ref-siblings", scope: "docs" }], /"scope" must be/],
  ])("fails loudly on %s", (_label, corrections, message) => {
    const run = () => applyOverlay(schema, corrections as never, "validators");
    if (message) expect(run).toThrow(message);
    else expect(run).not.toThrow();
  });

  it("rejects a constraining keyword beside $ref instead of dropping it", () => {
    const doctored = structuredClone(schema);
    doctored.$defs.EmptyResult = { $ref: "#/$defs/Result", required: ["x"] };
    expect(() => applyOverlay(doctored, [{ correction: "ref-siblings" }], "types")).toThrow(/"required" beside "\$ref"/);
  });
});

describe("schema-faithful types", () => {
  const types = (revision: string) => readFileSync(join(root, "generated", revision, "types.ts"), "utf8");

  it.each(PINNED_REVISIONS)("any-json-value (%s): every member the schema leaves unconstrained is `unknown`, never a string-keyed object", (revision) => {
    const corrected = applyOverlay(published(revision), readOverlay(root, revision), "types").schema;
    const unconstrained: string[] = [];
    walkNodes(corrected.$defs, (node, pointer) => {
      const keys = Object.keys(node);
      if (/\/properties\/[^/]+$/.test(pointer) && keys.length > 0 && keys.every((key) => key === "description" || key === "title")) unconstrained.push(pointer);
    });
    expect(unconstrained).toEqual([]);
  });

  it("any-json-value: an array structuredContent and a string error data are typed as the schema allows", () => {
    expect(types("2026-07-28")).toMatch(/^ {2}structuredContent\?: unknown;$/m);
    expect(types("2026-07-28")).not.toMatch(/structuredContent\?: \{/);
    expect(validate("CallToolResult", { resultType: "complete", content: [], structuredContent: [1, "two"] }).ok).toBe(true);
  });

  it("open-object: MetaObject is a string-keyed object, not an empty interface", () => {
    expect(published("2026-07-28").$defs.MetaObject).toMatchObject({ type: "object" });
    expect(types("2026-07-28")).toMatch(/^export interface MetaObject \{\n {2}\[k: string\]: unknown;\n\}$/m);
  });

  it.each([
    ["any-json-value on a constrained member", { correction: "any-json-value", at: ["/$defs/TextContent/properties/text"] }, /constrained now \(type\)/],
    ["open-object on a definition with members", { correction: "open-object", definitions: ["TextContent"] }, /no longer a bare object \(properties/],
    ["open-object on a missing definition", { correction: "open-object", definitions: ["Nope"] }, /no definition Nope/],
  ])("fails loudly on %s", (_label, entry, message) => {
    expect(() => applyOverlay(published("2026-07-28"), [entry], "types")).toThrow(message);
  });
});

describe("checkOverlay (the report --add-revision prints)", () => {
  it("says which corrections of an overlay apply to a schema and why the others match nothing", () => {
    const schema = published("2026-07-28");
    delete schema.$defs.InputRequiredResult;
    const verdicts = checkOverlay(schema, [
      ...readOverlay(root, "2026-07-28"),
      { correction: "number-not-integer", at: ["/$defs/Nope"] },
      { correction: "make-it-right" },
    ]);
    const byName = verdicts.map(({ entry, applies, reason }) => [entry.correction, applies, reason ?? ""]);
    expect(byName.filter(([, applies]) => applies).map(([name]) => name)).toEqual([
      "ref-siblings",
      "number-not-integer",
      "admit-null",
      "optional-on-receipt",
      "any-json-value",
      "open-object",
    ]);
    expect(byName.filter(([, applies]) => !applies)).toEqual([
      ["result-type-literals", false, "overlay result-type-literals: no definition InputRequiredResult"],
      ["at-least-one", false, "overlay at-least-one: no definition InputRequiredResult"],
      ["number-not-integer", false, "overlay: /$defs/Nope does not name a schema node in this revision"],
      ["make-it-right", false, expect.stringMatching(/unknown correction "make-it-right"/)],
    ]);
  });

  it("counts a correction that changes nothing as matching nothing", () => {
    const schema = published("2025-11-25");
    const [verdict] = checkOverlay(schema, [{ correction: "optional-on-receipt", definitions: [], properties: [] }]);
    expect(verdict).toEqual({ entry: expect.anything(), applies: false, reason: "it changes nothing in this schema (types)" });
  });
});
