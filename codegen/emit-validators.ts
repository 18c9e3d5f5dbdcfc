import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";

// CommonJS default export: Node hands ESM callers module.exports, whose .default is the function.
const standaloneCode = standaloneModule.default;
import { discriminateUnions } from "./discriminate.js";
import type { SchemaDocument } from "./json.js";
import type { MethodEntry, ProtocolModel } from "./model.js";

/**
 * The string formats the MCP schemas use, as regular expressions: AJV inlines
 * a RegExp format into standalone code, so the validators need no runtime
 * import of ajv-formats. Deliberately lenient where the spec is (any scheme
 * is a valid resource URI).
 */
const FORMATS: Record<string, RegExp> = {
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  "uri-template": /^[^\s]*$/,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
};

const SCHEMA_ID = "urn:mcp-roundtrip:schema";

/** Keywords that hold a map of subschemas (whose keys are names, not keywords). */
const SCHEMA_MAPS = new Set(["properties", "$defs", "patternProperties", "dependentSchemas"]);
/** Annotation keywords: they never change a validation outcome, and AJV would embed them in the code. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples", "default"]);

/** A copy of a schema node without annotations, so validators.js carries only what it checks. */
function withoutAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub)]));
    } else if (key === "const" || key === "enum") out[key] = value;
    else out[key] = withoutAnnotations(value);
  }
  return out;
}

function usesKeyword(schema: SchemaDocument, keyword: string): boolean {
  return JSON.stringify(schema.$defs).includes(`"${keyword}":`);
}

/** Export name of a method's params or result validator: `params$tools_call`. */
function methodExportName(kind: "params" | "result", method: string): string {
  return `${kind}$${method.replace(/[^A-Za-z0-9]/g, "_")}`;
}

function methodSchemas(entry: MethodEntry, model: ProtocolModel) {
  const def = (name: string) => ({ $ref: `${SCHEMA_ID}#/$defs/${name}` });
  const params = entry.params ? def(entry.params) : { $ref: `${SCHEMA_ID}#/$defs/${entry.request}/properties/params` };
  // Discriminating on resultType (rather than anyOf) keeps error paths
  // pointing into the branch the result claims to be.
  const result =
    entry.inputRequired && model.inputRequiredResult
      ? {
          if: { type: "object", required: ["resultType"], properties: { resultType: { const: "input_required" } } },
          then: def(model.inputRequiredResult),
          else: def(entry.result),
        }
      : def(entry.result);
  return { params, result };
}

/**
 * Emits validators.js: AJV 2020 standalone ESM code with one validator per
 * definition and per request method's params and result, plus lookup tables.
 * The code is self-contained (no imports, no eval / new Function at run time).
 *
 * @throws Error when the schema uses a format this generator does not know.
 */
export function emitValidators(header: string, schema: SchemaDocument, model: ProtocolModel): string {
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: true },
    allErrors: false,
    discriminator: true,
    // One function per definition, called by reference: inlining every small
    // $ref multiplies the code for no measurable gain.
    inlineRefs: false,
    strict: false,
    allowUnionTypes: true,
    validateFormats: true,
    formats: FORMATS,
  });
  // Ajv2020 forces dynamicRef/unevaluated on in its constructor. The MCP
  // schemas use neither $dynamicRef nor unevaluated*, and tracking them adds
  // bookkeeping to every validator call, so switch them off before compiling.
  if (usesKeyword(schema, "$dynamicRef") || usesKeyword(schema, "unevaluatedProperties") || usesKeyword(schema, "unevaluatedItems")) {
    throw new Error("codegen validators: the schema now uses $dynamicRef/unevaluated*; remove the opts override below");
  }
  Object.assign(ajv.opts, { dynamicRef: false, unevaluated: false });
  const prepared = { $defs: withoutAnnotations(schema.$defs) as SchemaDocument["$defs"] };
  discriminateUnions(prepared);
  ajv.addSchema({ $id: SCHEMA_ID, $defs: prepared.$defs });
  const exports: Record<string, string> = {};
  for (const name of model.definitions) exports[name] = `${SCHEMA_ID}#/$defs/${name}`;
  const seen = new Set<string>();
  for (const entry of model.methods) {
    if (seen.has(entry.method)) continue;
    seen.add(entry.method);
    const { params, result } = methodSchemas(entry, model);
    for (const [kind, body] of [
      ["params", params],
      ["result", result],
    ] as const) {
      const id = `urn:mcp-roundtrip:${kind}:${encodeURIComponent(entry.method)}`;
      ajv.addSchema({ $id: id, ...body });
      exports[methodExportName(kind, entry.method)] = id;
    }
  }
  const code = standaloneCode(ajv, exports);
  if (/\brequire\(|\bnew Function\b|\beval\(/.test(code)) {
    throw new Error("codegen validators: standalone code would need require/eval at run time; keep formats as RegExp");
  }
  const table = model.definitions.map((name) => `  ${name},`).join("\n");
  const methodTable = [...seen]
    .map((method) => `  ${JSON.stringify(method)}: { params: ${methodExportName("params", method)}, result: ${methodExportName("result", method)} },`)
    .join("\n");
  return [
    header,
    "/* eslint-disable */",
    code.replace(/^"use strict";\n?/, ""),
    "",
    "/** Validators by definition name. */",
    `export const validators = {\n${table}\n};`,
    "",
    "/** Validators of each request method's params and result (the result may be an InputRequiredResult where the method allows it). */",
    `export const methodValidators = {\n${methodTable}\n};`,
    "",
  ].join("\n");
}

/** Emits validators.d.ts: the declarations matching validators.js, typed as guards over types.ts. */
export function emitValidatorDeclarations(header: string, model: ProtocolModel): string {
  const out: string[] = [header, "", `import type * as T from "./types.js";`, ""];
  out.push(
    "/** One problem AJV found: where (`instancePath`, a JSON Pointer), which keyword, and a message. */",
    "export interface ValidationError {",
    "  instancePath: string;",
    "  schemaPath: string;",
    "  keyword: string;",
    "  params: Record<string, unknown>;",
    "  message?: string;",
    "}",
    "",
    "/** A compiled validator: a type guard that leaves the first problem in `errors` when it returns false. */",
    "export interface Validator<V = unknown> {",
    "  (data: unknown): data is V;",
    "  errors?: ValidationError[] | null;",
    "}",
    "",
  );
  for (const name of model.definitions) out.push(`export declare const ${name}: Validator<T.${name}>;`);
  const seen = new Map<string, MethodEntry>();
  for (const entry of model.methods) if (!seen.has(entry.method)) seen.set(entry.method, entry);
  out.push("");
  for (const entry of seen.values()) {
    const params = entry.params ? `T.${entry.params}` : `NonNullable<T.${entry.request}["params"]>`;
    const result = entry.inputRequired && model.inputRequiredResult ? `T.${entry.result} | T.${model.inputRequiredResult}` : `T.${entry.result}`;
    out.push(`export declare const ${methodExportName("params", entry.method)}: Validator<${params}>;`);
    out.push(`export declare const ${methodExportName("result", entry.method)}: Validator<${result}>;`);
  }
  out.push("", "/** Validators by definition name. */", "export declare const validators: {");
  for (const name of model.definitions) out.push(`  readonly ${name}: Validator<T.${name}>;`);
  out.push("};", "", "/** Validators of each request method's params and result. */", "export declare const methodValidators: {");
  for (const entry of seen.values()) {
    out.push(
      `  readonly ${JSON.stringify(entry.method)}: { readonly params: typeof ${methodExportName("params", entry.method)}; readonly result: typeof ${methodExportName("result", entry.method)} };`,
    );
  }
  out.push("};", "");
  return out.join("\n");
}
