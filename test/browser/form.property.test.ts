// The browser example's form model (examples/browser/form.ts) against the
// server's own check of an elicitation answer: whatever the form accepts, the
// server accepts (for any schema of the protocol's subset and any values the
// controls could hold), and values that satisfy the schema always get through.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formContent, formFields, type FormValue, type RequestedSchema } from "../../examples/browser/form.js";
import { checkElicitContent, type ElicitSchema } from "../../runtime/server/dependencies/elicitation-schema.js";

const choice = fc.constantFrom("a", "b", "c", "d");
const bound = fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined });

/** One field of the subset, formats left out (the browser's input types check those, and the server re-checks). */
const property = fc.oneof(
  fc.record(
    { type: fc.constant("string"), minLength: fc.option(fc.nat(3), { nil: undefined }), maxLength: fc.option(fc.integer({ min: 3, max: 6 }), { nil: undefined }) },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constantFrom("number", "integer"), minimum: bound, maximum: bound }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("boolean"), default: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(choice, { minLength: 1 }) }),
  fc.record({
    type: fc.constant("string"),
    oneOf: fc.uniqueArray(choice, { minLength: 1 }).map((values) => values.map((value) => ({ const: value, title: value.toUpperCase() }))),
  }),
  fc.record(
    {
      type: fc.constant("array"),
      items: fc.uniqueArray(choice, { minLength: 1 }).map((values) => ({ type: "string", enum: values })),
      minItems: fc.option(fc.nat(2), { nil: undefined }),
      maxItems: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    },
    { requiredKeys: ["type", "items"] },
  ),
);

const schema = fc
  .dictionary(fc.constantFrom("f1", "f2", "f3", "f4", "f5"), property, { minKeys: 1 })
  .chain((properties) => fc.subarray(Object.keys(properties)).map((required) => ({ type: "object", properties, required }) as unknown as RequestedSchema));

/** What a control could hold: text (numeric-looking or not), a checkbox state, a multi-select's list. */
const rawValue: fc.Arbitrary<FormValue | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 7 }),
  fc.double({ min: -10, max: 10, noNaN: true }).map(String),
  fc.integer({ min: -10, max: 10 }).map(String),
  fc.boolean(),
  fc.array(choice, { maxLength: 4 }),
);

describe("the browser form model", () => {
  it("never lets through an answer the server would refuse", () => {
    fc.assert(
      fc.property(schema, fc.dictionary(fc.constantFrom("f1", "f2", "f3", "f4", "f5"), rawValue), (requested, values) => {
        const outcome = formContent(formFields(requested), values);
        if ("content" in outcome) expect(checkElicitContent(requested as unknown as ElicitSchema, outcome.content)).toEqual([]);
        else expect(outcome.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it("turns what a user would type for a valid answer into that answer", () => {
    const answerFor = (field: ReturnType<typeof formFields>[number]): fc.Arbitrary<FormValue> => {
      switch (field.kind) {
        case "boolean":
          return fc.boolean();
        case "number":
        case "integer": {
          const min = field.minimum ?? -100;
          const max = Math.max(min, field.maximum ?? 100);
          return (field.kind === "integer" ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true })).map(String);
        }
        case "select":
          return fc.constantFrom(...field.options!.map((option) => option.value));
        case "multiselect": {
          // An empty selection is "not answered", so a required list gets at least one pick.
          const values = field.options!.map((option) => option.value);
          const maxLength = Math.min(field.maxItems ?? values.length, values.length);
          return fc.subarray(values, { minLength: Math.min(Math.max(field.minItems ?? 0, field.required ? 1 : 0), maxLength), maxLength });
        }
        default:
          return fc.string({
            unit: "grapheme-ascii",
            minLength: Math.max(1, field.minLength ?? 1),
            maxLength: Math.max(field.minLength ?? 1, field.maxLength ?? 6),
          });
      }
    };
    const satisfiable = schema.filter((requested) =>
      formFields(requested).every(
        (field) =>
          (field.minimum === undefined || field.maximum === undefined || field.minimum <= field.maximum) &&
          (field.minLength === undefined || field.maxLength === undefined || field.minLength <= field.maxLength) &&
          (field.minItems === undefined || field.minItems <= Math.min(field.maxItems ?? Infinity, field.options?.length ?? Infinity)),
      ),
    );
    fc.assert(
      fc.property(
        satisfiable.chain((requested) => {
          const fields = formFields(requested);
          return fc.record(Object.fromEntries(fields.map((field) => [field.name, answerFor(field)]))).map((values) => ({ requested, fields, values }));
        }),
        ({ requested, fields, values }) => {
          const outcome = formContent(fields, values);
          expect(outcome).toHaveProperty("content");
          if (!("content" in outcome)) return;
          expect(checkElicitContent(requested as unknown as ElicitSchema, outcome.content)).toEqual([]);
          for (const field of fields) {
            const typed = outcome.content[field.name];
            const raw = values[field.name];
            if (field.kind === "number" || field.kind === "integer") expect(typed).toBe(Number(raw));
            else if (Array.isArray(raw) && raw.length === 0) expect(typed).toBeUndefined();
            else expect(typed).toEqual(raw);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads labels, required marks, choices and bounds from the schema", () => {
    const fields = formFields({
      type: "object",
      properties: {
        who: { type: "string", title: "Who", minLength: 2, format: "email" },
        size: { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"] },
        n: { type: "integer", minimum: 1, maximum: 3 },
      },
      required: ["who"],
    } as RequestedSchema);
    expect(fields).toEqual([
      { name: "who", label: "Who", required: true, kind: "text", inputType: "email", minLength: 2 },
      {
        name: "size",
        label: "size",
        required: false,
        kind: "select",
        options: [
          { value: "s", label: "Small" },
          { value: "m", label: "Medium" },
        ],
      },
      { name: "n", label: "n", required: false, kind: "integer", minimum: 1, maximum: 3 },
    ]);
    expect(formContent(fields, { who: "x", n: "2.5" })).toEqual({
      issues: [
        { field: "who", message: "Who needs at least 2 characters." },
        { field: "n", message: "n must be a whole number." },
      ],
    });
    expect(formContent(fields, {})).toEqual({ issues: [{ field: "who", message: "Who is required." }] });
  });
});
