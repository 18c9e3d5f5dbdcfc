// The form an elicitation asks for, as plain data: which fields a
// `requestedSchema` describes (strings, numbers, integers, booleans, single
// and multiple choice, which are required), and the typed `content` a set of
// form values stands for, or what is wrong with them. No DOM here, so it runs
// (and is tested) anywhere; form-dom.ts draws it.
import type { ElicitRequestFormParams, PrimitiveSchemaDefinition, StringSchema } from "mcp-roundtrip/types";

/** The schema a form elicitation carries. */
export type RequestedSchema = ElicitRequestFormParams["requestedSchema"];

/** One choice of a select. */
export interface FieldOption {
  value: string;
  label: string;
}

/** What a field's control is. */
export type FieldKind = "text" | "number" | "integer" | "boolean" | "select" | "multiselect";

/** One field of the form, as drawn. */
export interface FormField {
  /** The property name: the key of its answer in `content`. */
  name: string;
  /** The schema's `title`, else the property name. */
  label: string;
  description?: string;
  required: boolean;
  kind: FieldKind;
  /** For `text`: the HTML input type its `format` maps to. */
  inputType?: "text" | "email" | "url" | "date";
  /** For `select` and `multiselect`. */
  options?: FieldOption[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: string | number | boolean | string[];
}

/** A value read from a control: text and selects give strings, checkboxes booleans, multi-selects lists. */
export type FormValue = string | boolean | string[];

/** The answer's `content`: one typed value per filled field. */
export type FormContent = Record<string, string | number | boolean | string[]>;

/** A problem with one field's value. */
export interface FormIssue {
  field: string;
  message: string;
}

const INPUT_TYPES = { email: "email", uri: "url", date: "date" } as const;

function fieldOf(name: string, schema: PrimitiveSchemaDefinition, required: boolean): FormField {
  const field: FormField = { name, label: schema.title ?? name, required, kind: "text" };
  if (schema.description !== undefined) field.description = schema.description;
  if (schema.type === "boolean") {
    field.kind = "boolean";
    if (schema.default !== undefined) field.default = schema.default;
  } else if (schema.type === "number" || schema.type === "integer") {
    field.kind = schema.type;
    if (schema.minimum !== undefined) field.minimum = schema.minimum;
    if (schema.maximum !== undefined) field.maximum = schema.maximum;
    if (schema.default !== undefined) field.default = schema.default;
  } else if (schema.type === "array") {
    field.kind = "multiselect";
    field.options =
      "anyOf" in schema.items
        ? schema.items.anyOf.map((option) => ({ value: option.const, label: option.title }))
        : schema.items.enum.map((value) => ({ value, label: value }));
    if (schema.minItems !== undefined) field.minItems = schema.minItems;
    if (schema.maxItems !== undefined) field.maxItems = schema.maxItems;
    if (schema.default !== undefined) field.default = schema.default;
  } else if ("oneOf" in schema) {
    field.kind = "select";
    field.options = schema.oneOf.map((option) => ({ value: option.const, label: option.title }));
    if (schema.default !== undefined) field.default = schema.default;
  } else if ("enum" in schema) {
    field.kind = "select";
    const names = "enumNames" in schema ? schema.enumNames : undefined;
    field.options = schema.enum.map((value, index) => ({ value, label: names?.[index] ?? value }));
    if (schema.default !== undefined) field.default = schema.default;
  } else {
    const text = schema as StringSchema;
    field.inputType = text.format !== undefined && text.format in INPUT_TYPES ? INPUT_TYPES[text.format as keyof typeof INPUT_TYPES] : "text";
    if (text.minLength !== undefined) field.minLength = text.minLength;
    if (text.maxLength !== undefined) field.maxLength = text.maxLength;
    if (text.default !== undefined) field.default = text.default;
  }
  return field;
}

/**
 * The fields a `requestedSchema` describes, in its property order.
 *
 * @param schema - The elicitation's `requestedSchema`.
 * @returns One field per property, each knowing whether it is required.
 */
export function formFields(schema: RequestedSchema): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => fieldOf(name, property, required.has(name)));
}

/** Counts UTF-16 code points the way JSON Schema's `minLength` does (by code point). */
const lengthOf = (text: string) => [...text].length;

function numberFrom(field: FormField, text: string): number | string {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value)) return `${field.label} must be a number.`;
  if (field.kind === "integer" && !Number.isInteger(value)) return `${field.label} must be a whole number.`;
  if (field.minimum !== undefined && value < field.minimum) return `${field.label} must be at least ${field.minimum}.`;
  if (field.maximum !== undefined && value > field.maximum) return `${field.label} must be at most ${field.maximum}.`;
  return value;
}

function checkText(field: FormField, text: string): string | undefined {
  if (field.kind === "select") {
    return field.options?.some((option) => option.value === text) ? undefined : `${field.label} must be one of the listed choices.`;
  }
  if (field.minLength !== undefined && lengthOf(text) < field.minLength) return `${field.label} needs at least ${field.minLength} characters.`;
  if (field.maxLength !== undefined && lengthOf(text) > field.maxLength) return `${field.label} takes at most ${field.maxLength} characters.`;
  return undefined;
}

function checkList(field: FormField, list: string[]): string | undefined {
  const allowed = new Set(field.options?.map((option) => option.value));
  if (list.some((value) => !allowed.has(value))) return `${field.label} must only hold the listed choices.`;
  if (new Set(list).size !== list.length) return `${field.label} lists a choice twice.`;
  if (field.minItems !== undefined && list.length < field.minItems) return `Pick at least ${field.minItems} for ${field.label}.`;
  if (field.maxItems !== undefined && list.length > field.maxItems) return `Pick at most ${field.maxItems} for ${field.label}.`;
  return undefined;
}

/**
 * Turns what the controls hold into the answer's `content`: numbers parsed,
 * empty optional fields left out, every constraint of the schema checked.
 *
 * @param fields - The form's fields ({@link formFields}).
 * @param values - Each control's value by field name; a missing one counts as empty.
 * @returns `{ content }` when every field is fine, else `{ issues }`, one per bad field.
 */
export function formContent(
  fields: readonly FormField[],
  values: Readonly<Record<string, FormValue | undefined>>,
): { content: FormContent } | { issues: FormIssue[] } {
  const content: FormContent = {};
  const issues: FormIssue[] = [];
  for (const field of fields) {
    const raw = values[field.name];
    if (field.kind === "boolean") {
      content[field.name] = raw === true;
      continue;
    }
    const empty = raw === undefined || (Array.isArray(raw) ? raw.length === 0 : raw === "");
    if (empty) {
      if (field.required) issues.push({ field: field.name, message: `${field.label} is required.` });
      continue;
    }
    let problem: string | undefined;
    if (field.kind === "multiselect") {
      const list = Array.isArray(raw) ? raw : [String(raw)];
      problem = checkList(field, list);
      if (problem === undefined) content[field.name] = list;
    } else if (field.kind === "number" || field.kind === "integer") {
      const parsed = numberFrom(field, String(raw));
      if (typeof parsed === "number") content[field.name] = parsed;
      else problem = parsed;
    } else {
      const text = String(raw);
      problem = checkText(field, text);
      if (problem === undefined) content[field.name] = text;
    }
    if (problem !== undefined) issues.push({ field: field.name, message: problem });
  }
  return issues.length > 0 ? { issues } : { content };
}
