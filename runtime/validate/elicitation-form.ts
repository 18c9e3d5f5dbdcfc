/**
 * The restricted JSON Schema an elicitation form may use (flat object of
 * primitive fields) and a hand-written checker for it, shared by the
 * server's declared needs (which check the answers they receive) and the
 * client (which checks its own `onElicit` answers before sending them). The
 * TypeScript reading of a form is the server's (`ElicitContent`).
 *
 * Hand-written rather than compiled with AJV at run time because the schema
 * is the tool author's (or the server's, on the client), known only at run
 * time, and compiling would need `new Function`, which edge runtimes forbid.
 */
import type { ValidationIssue } from "./issues.js";
import { isObject } from "../protocol/guards.js";
import type { ElicitFieldSchema, ElicitSchema } from "./elicitation-form-types.js";

export type {
  BooleanFieldSchema,
  ElicitFieldSchema,
  ElicitSchema,
  MultiSelectFieldSchema,
  NumberFieldSchema,
  SingleSelectFieldSchema,
  StringFieldSchema,
  TitledSingleSelectFieldSchema,
} from "./elicitation-form-types.js";

/** One problem found in a value: where (a JSON Pointer) and what; the package's one issue shape. */
export type Issue = ValidationIssue;

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

const isNonNegativeInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;

// escapePointerToken (./issues.ts) spelt out: importing it would split a shared chunk off the browser client's entry.
const pointer = (field: string): string => (field.includes("~") || field.includes("/") ? `/${field.replace(/~/g, "~0").replace(/\//g, "~1")}` : `/${field}`);

const FORMATS = ["date", "date-time", "email", "uri"] as const;

/**
 * Checks that `schema` is a form `requestedSchema` the protocol admits, so a
 * tool author learns of a mistake when declaring the question rather than
 * from a client that cannot render it.
 *
 * @param schema - the candidate `requestedSchema`.
 * @returns the problems found, empty when the schema is usable.
 */
export function checkElicitSchema(schema: unknown): Issue[] {
  if (!isObject(schema)) return [{ path: "", message: "requestedSchema must be an object schema" }];
  const issues: Issue[] = [];
  if (schema.type !== "object") issues.push({ path: "/type", message: 'must be "object"' });
  if (!isObject(schema.properties)) {
    issues.push({ path: "/properties", message: "must be an object mapping field names to primitive field schemas" });
    return issues;
  }
  for (const [field, fieldSchema] of Object.entries(schema.properties)) {
    for (const issue of checkFieldSchema(fieldSchema)) {
      issues.push({ path: `/properties${pointer(field)}${issue.path}`, message: issue.message });
    }
  }
  if (schema.required !== undefined) {
    if (!isStringArray(schema.required)) {
      issues.push({ path: "/required", message: "must be an array of field names" });
    } else {
      for (const field of schema.required) {
        if (!Object.hasOwn(schema.properties, field)) {
          issues.push({ path: "/required", message: `names "${field}", which is not in properties` });
        }
      }
    }
  }
  return issues;
}

function checkFieldSchema(field: unknown): Issue[] {
  if (!isObject(field)) return [{ path: "", message: "must be a field schema object" }];
  const issues: Issue[] = [];
  const bound = (key: string) => {
    if (field[key] !== undefined && !isNonNegativeInteger(field[key])) {
      issues.push({ path: `/${key}`, message: "must be a non-negative integer" });
    }
  };
  const options = (value: unknown, path: string) => {
    if (!Array.isArray(value) || value.length === 0) {
      issues.push({ path, message: "must be a non-empty array of options" });
    }
  };
  switch (field.type) {
    case "string":
      if (field.enum !== undefined) {
        options(field.enum, "/enum");
        if (Array.isArray(field.enum) && !isStringArray(field.enum)) issues.push({ path: "/enum", message: "must hold strings" });
      } else if (field.oneOf !== undefined) {
        options(field.oneOf, "/oneOf");
        if (Array.isArray(field.oneOf) && !field.oneOf.every((o) => isObject(o) && typeof o.const === "string" && typeof o.title === "string")) {
          issues.push({ path: "/oneOf", message: "each option must be { const: string, title: string }" });
        }
      } else {
        bound("minLength");
        bound("maxLength");
        if (field.format !== undefined && !FORMATS.includes(field.format as (typeof FORMATS)[number])) {
          issues.push({ path: "/format", message: `must be one of ${FORMATS.join(", ")}` });
        }
      }
      break;
    case "number":
    case "integer":
      for (const key of ["minimum", "maximum"]) {
        if (field[key] !== undefined && (typeof field[key] !== "number" || !Number.isFinite(field[key]))) {
          issues.push({ path: `/${key}`, message: "must be a finite number" });
        }
      }
      break;
    case "boolean":
      break;
    case "array": {
      bound("minItems");
      bound("maxItems");
      const items = field.items;
      if (!isObject(items)) {
        issues.push({ path: "/items", message: 'must be { type: "string", enum: [...] } or { anyOf: [{ const, title }, ...] }' });
      } else if (items.enum !== undefined) {
        options(items.enum, "/items/enum");
        if (Array.isArray(items.enum) && !isStringArray(items.enum)) issues.push({ path: "/items/enum", message: "must hold strings" });
      } else if (items.anyOf !== undefined) {
        options(items.anyOf, "/items/anyOf");
        if (Array.isArray(items.anyOf) && !items.anyOf.every((o) => isObject(o) && typeof o.const === "string" && typeof o.title === "string")) {
          issues.push({ path: "/items/anyOf", message: "each option must be { const: string, title: string }" });
        }
      } else {
        issues.push({ path: "/items", message: "must list the options in enum or anyOf" });
      }
      break;
    }
    default:
      issues.push({
        path: "/type",
        message: 'must be "string", "number", "integer", "boolean" or "array" (elicitation forms hold primitive fields only)',
      });
  }
  return issues;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const WHITESPACE = /\s/;

/**
 * `local@domain.tld` as the pattern `^[^\s@]+@[^\s@]+\.[^\s@]+$` reads it,
 * checked in one pass: that regex backtracks quadratically on a long
 * near-miss, and the text is the client's.
 */
function isEmail(text: string): boolean {
  const at = text.indexOf("@");
  if (at < 1 || text.indexOf("@", at + 1) !== -1 || WHITESPACE.test(text)) return false;
  const dot = text.indexOf(".", at + 2); // a dot with at least one character on each side, within the domain
  return dot !== -1 && dot < text.length - 1;
}
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function matchesFormat(format: string, text: string): boolean {
  switch (format) {
    case "date":
      return isCalendarDate(text);
    case "date-time": {
      const match = DATE_TIME.exec(text);
      return match !== null && isCalendarDate(match[1]!) && Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 61;
    }
    case "email":
      return isEmail(text);
    case "uri":
      return URI.test(text);
    default:
      return true;
  }
}

const optionValues = (options: readonly unknown[]): string[] => options.map((option) => (isObject(option) ? String(option.const) : String(option)));

function checkFieldValue(schema: ElicitFieldSchema, value: unknown, path: string): Issue[] {
  const fail = (message: string): Issue[] => [{ path, message }];
  switch (schema.type) {
    case "string": {
      if (typeof value !== "string") return fail("must be a string");
      if ("enum" in schema) {
        return schema.enum.includes(value) ? [] : fail(`must be one of ${JSON.stringify(schema.enum)}`);
      }
      if ("oneOf" in schema) {
        const allowed = optionValues(schema.oneOf);
        return allowed.includes(value) ? [] : fail(`must be one of ${JSON.stringify(allowed)}`);
      }
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength) return fail(`must be at least ${schema.minLength} characters`);
      if (schema.maxLength !== undefined && length > schema.maxLength) return fail(`must be at most ${schema.maxLength} characters`);
      if (schema.format !== undefined && !matchesFormat(schema.format, value)) return fail(`must be a valid ${schema.format}`);
      return [];
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return fail("must be a number");
      if (schema.type === "integer" && !Number.isInteger(value)) return fail("must be an integer");
      if (schema.minimum !== undefined && value < schema.minimum) return fail(`must be ≥ ${schema.minimum}`);
      if (schema.maximum !== undefined && value > schema.maximum) return fail(`must be ≤ ${schema.maximum}`);
      return [];
    }
    case "boolean":
      return typeof value === "boolean" ? [] : fail("must be a boolean");
    case "array": {
      if (!isStringArray(value)) return fail("must be an array of strings");
      const allowed = "enum" in schema.items ? [...schema.items.enum] : optionValues(schema.items.anyOf);
      const issues: Issue[] = [];
      value.forEach((item, index) => {
        if (!allowed.includes(item)) issues.push({ path: `${path}/${index}`, message: `must be one of ${JSON.stringify(allowed)}` });
      });
      if (new Set(value).size !== value.length) issues.push({ path, message: "must not repeat an option" });
      if (schema.minItems !== undefined && value.length < schema.minItems) issues.push({ path, message: `must select at least ${schema.minItems}` });
      if (schema.maxItems !== undefined && value.length > schema.maxItems) issues.push({ path, message: `must select at most ${schema.maxItems}` });
      return issues;
    }
  }
}

/**
 * Checks the `content` of an accepted elicitation against the form schema it
 * answers: every required field present, every field of the declared type and
 * within its constraints, no field the form did not ask for.
 *
 * @param schema - the form's `requestedSchema` (already accepted by {@link checkElicitSchema}).
 * @param content - the `content` the client sent.
 * @returns the problems found, empty when `content` is valid.
 */
export function checkElicitContent(schema: ElicitSchema, content: unknown): Issue[] {
  if (!isObject(content)) return [{ path: "", message: "content must be an object" }];
  const issues: Issue[] = [];
  for (const field of schema.required ?? []) {
    if (!Object.hasOwn(content, field)) issues.push({ path: pointer(field), message: "is required" });
  }
  for (const [field, value] of Object.entries(content)) {
    const fieldSchema = Object.hasOwn(schema.properties, field) ? schema.properties[field] : undefined;
    if (fieldSchema === undefined) {
      issues.push({ path: pointer(field), message: "is not a field of the form" });
      continue;
    }
    issues.push(...checkFieldValue(fieldSchema, value, pointer(field)));
  }
  return issues;
}
