// The diff --add-revision prints: each change between two schemas, classified
// additive or breaking, on small hand-made schemas (one definition each, unless
// the case is about definitions or methods), and where a breaking change
// reaches the wire (what its adapter must map).
import { describe, expect, it } from "vitest";
import type { SchemaDocument, SchemaNode } from "../../codegen/json.js";
import { buildModel } from "../../codegen/model.js";
import { carriersOf } from "../../codegen/carriers.js";
import { describeChange, diffDefinitions, diffRevisions, type SchemaChange } from "../../codegen/schema-diff.js";

const doc = ($defs: Record<string, SchemaNode>): SchemaDocument => ({ $defs });
const lines = (changes: SchemaChange[]) => changes.map((change) => `${change.kind} ${describeChange(change)}`);
/** A definition `Tool` with `properties` and `required`. */
const tool = (properties: SchemaNode, required: string[] = ["name"]): SchemaDocument => doc({ Tool: { type: "object", properties, required } });
const name = { name: { type: "string", description: "Its name." } };

describe.each<[string, { before: SchemaDocument; after: SchemaDocument; want: string[] }]>([
  ["nothing but annotations", { before: tool(name), after: tool({ name: { type: "string", description: "Renamed prose.", title: "Name" } }), want: [] }],
  ["a new optional property", { before: tool(name), after: tool({ ...name, icon: { type: "string" } }), want: ["additive Tool: new optional property icon"] }],
  [
    "a new required property",
    { before: tool(name), after: tool({ ...name, icon: { type: "string" } }, ["name", "icon"]), want: ["breaking Tool: new required property icon"] },
  ],
  ["a removed property", { before: tool({ ...name, icon: { type: "string" } }), after: tool(name), want: ["breaking Tool: property icon removed"] }],
  [
    "a rename: removed and added with the same sub-schema (descriptions aside)",
    {
      before: tool({ ...name, title: { type: "string", description: "Display name." } }),
      after: tool({ ...name, displayName: { type: "string", description: "What a UI shows." } }),
      want: ["breaking Tool: renamed title → displayName?"],
    },
  ],
  [
    "removed and added with different sub-schemas: no rename",
    {
      before: tool({ ...name, title: { type: "string" } }),
      after: tool({ ...name, displayName: { type: "number" } }),
      want: ["breaking Tool: property title removed", "additive Tool: new optional property displayName"],
    },
  ],
  [
    "optional → required, and back",
    {
      before: tool({ ...name, icon: { type: "string" } }, ["name"]),
      after: tool({ ...name, icon: { type: "string" } }, ["icon"]),
      want: ["additive Tool: name changed from required to optional", "breaking Tool: icon changed from optional to required"],
    },
  ],
  [
    "a narrowed, a widened and a changed type",
    {
      before: tool({ a: { type: ["string", "null"] }, b: { type: "integer" }, c: { type: "string" } }, []),
      after: tool({ a: { type: "string" }, b: { type: "number" }, c: { type: "boolean" } }, []),
      want: [
        "breaking Tool: a: type narrowed from string | null to string",
        "additive Tool: b: type widened from integer to number",
        "breaking Tool: c: type changed from string to boolean",
      ],
    },
  ],
  [
    "a changed const",
    {
      before: tool({ kind: { const: "tool", type: "string" } }, []),
      after: tool({ kind: { const: "function", type: "string" } }, []),
      want: ['breaking Tool: kind: const changed from "tool" to "function"'],
    },
  ],
  [
    "enum values added and removed",
    {
      before: tool({ level: { enum: ["low", "high"], type: "string" } }, []),
      after: tool({ level: { enum: ["low", "medium"], type: "string" } }, []),
      want: ['additive Tool: level: new enum value "medium"', 'breaking Tool: level: enum value removed: "high"'],
    },
  ],
  [
    "a nested property, an array's items and a closed object",
    {
      before: tool({ annotations: { type: "object", properties: { hint: { type: "boolean" } } }, icons: { type: "array", items: { type: "string" } } }, []),
      after: tool(
        { annotations: { type: "object", properties: {}, additionalProperties: false }, icons: { type: "array", items: { type: "string", format: "uri" } } },
        [],
      ),
      want: [
        "breaking Tool: annotations: property hint removed",
        "breaking Tool: annotations: closed to unknown properties (additionalProperties: false)",
        'breaking Tool: icons[]: new constraint format: "uri"',
      ],
    },
  ],
  [
    "a new capability",
    {
      before: doc({ ClientCapabilities: { type: "object", properties: { roots: { type: "object" } } } }),
      after: doc({ ClientCapabilities: { type: "object", properties: { roots: { type: "object" }, widgets: { type: "object" } } } }),
      want: ["additive ClientCapabilities: new client capability widgets"],
    },
  ],
  [
    "definitions added, removed and renamed; a union member added and a reference changed",
    {
      before: doc({
        Old: { type: "object", properties: { a: { type: "string" } } },
        Gone: { type: "boolean" },
        Content: { anyOf: [{ $ref: "#/$defs/Old" }] },
        Holder: { type: "object", properties: { x: { $ref: "#/$defs/Old" } } },
      }),
      after: doc({
        New: { type: "object", properties: { a: { type: "string" } } },
        Extra: { type: "number" },
        Content: { anyOf: [{ $ref: "#/$defs/New" }, { $ref: "#/$defs/Extra" }] },
        Holder: { type: "object", properties: { x: { $ref: "#/$defs/New" } } },
      }),
      want: [
        "breaking Old: definition renamed Old → New?",
        "breaking Gone: definition removed",
        "additive Extra: new definition",
        "additive Content: new member New",
        "additive Content: new member Extra",
        "breaking Content: member Old removed",
        "breaking Holder: x: now refers to New, was a reference to Old",
      ],
    },
  ],
])("diffDefinitions: %s", (_name, { before, after, want }) => {
  it("classifies each change", () => {
    expect(lines(diffDefinitions(before, after))).toEqual(want);
  });
});

/** A tiny protocol: requests and results in the shape buildModel links (XRequest, XResultResponse, the unions). */
function protocol(extra: { tool: SchemaNode; methods?: string[]; inputs?: string[] }): SchemaDocument {
  const defs: Record<string, SchemaNode> = { Tool: extra.tool, ClientRequest: { anyOf: [] }, InputRequest: { anyOf: [] } };
  const add = (union: string, method: string, result: SchemaNode) => {
    const base = method.replace(/(^|\/)(\w)/g, (_m, _s, c: string) => c.toUpperCase());
    defs[`${base}Request`] = { type: "object", properties: { method: { const: method, type: "string" }, params: { type: "object" } } };
    defs[`${base}Result`] = result;
    defs[`${base}ResultResponse`] = { type: "object", properties: { result: { $ref: `#/$defs/${base}Result` } } };
    (defs[union]!.anyOf as SchemaNode[]).push({ $ref: `#/$defs/${base}Request` });
  };
  add("ClientRequest", "tools/list", { type: "object", properties: { tools: { type: "array", items: { $ref: "#/$defs/Tool" } } } });
  for (const method of extra.methods ?? []) add("ClientRequest", method, { type: "object" });
  for (const method of extra.inputs ?? []) add("InputRequest", method, { type: "object" });
  return doc(defs);
}
const side = (schema: SchemaDocument) => ({ schema, model: buildModel("r", schema, {}) });

describe("diffRevisions", () => {
  it("reports new and removed methods and input-request kinds, breaking first", () => {
    const before = protocol({ tool: { type: "object" }, methods: ["gadgets/list"] });
    const after = protocol({ tool: { type: "object" }, methods: ["widgets/list"], inputs: ["elicitation/create"] });
    const changes = lines(diffRevisions(side(before), side(after)).filter((change) => !/definition|member/.test(change.text)));
    expect(changes).toEqual(["breaking gadgets/list: method removed", "additive elicitation/create: new input-request kind", "additive widgets/list: new method"]);
  });

  it("says which messages carry a changed definition: tools/list's result carries Tool", () => {
    const after = protocol({ tool: { type: "object", properties: { displayName: { type: "string" } } }, methods: ["widgets/list"] });
    const changes = diffRevisions(side(protocol({ tool: { type: "object", properties: { title: { type: "string" } } } })), side(after));
    expect(lines(changes.filter((change) => change.kind === "breaking"))).toEqual(["breaking Tool: renamed title → displayName?"]);
    const { model } = side(after);
    expect(carriersOf("Tool", after, model)).toEqual({ results: ["tools/list"], params: [], notifications: [] });
    expect(carriersOf("widgets/list", after, model)).toEqual({ results: ["widgets/list"], params: ["widgets/list"], notifications: [] });
  });
});
