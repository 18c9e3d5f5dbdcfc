/**
 * {@link jsonSchema}: a JSON Schema held in a variable that keeps its
 * literal type, so it types a tool's `args` or `structuredContent` (or an
 * elicitation form) as the same schema written inline does.
 *
 * @module
 */
import { isObject } from "../../protocol/guards.js";
import { unknownRequiredName, unknownRequiredNameError } from "./required-names.js";
import type { JsonSchemaObject } from "./types/infer.js";
import type { SchemaFix } from "./types/required-names.js";

/**
 * Returns `schema` as it is, typed as its literal: a schema kept in a
 * variable (shared by tools, or built apart) types handlers without
 * `as const`. A `required` entry that names none of the `properties` beside
 * it fails to compile, at the entry, and throws here at run time.
 *
 * @param schema - a JSON Schema object, written as a literal.
 * @returns the same object.
 * @throws TypeError when `schema` is not an object, or a `required` entry names no property (the message names it).
 * @example
 * ```ts
 * import { McpServer, jsonSchema } from "mcp-roundtrip/server";
 *
 * const point = jsonSchema({ type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] });
 * const server = new McpServer({ name: "geometry", version: "1.0.0" });
 * server.tool("norm", { inputSchema: point }, ({ x, y }) => ({ content: [{ type: "text", text: String(Math.hypot(x, y)) }] }));
 * ```
 */
export function jsonSchema<const S extends JsonSchemaObject>(schema: S & SchemaFix<S>): S {
  if (!isObject(schema)) throw new TypeError(`jsonSchema: expected a JSON Schema object, got ${Array.isArray(schema) ? "an array" : typeof schema}`);
  const found = unknownRequiredName(schema);
  if (found !== undefined) throw unknownRequiredNameError("jsonSchema", found);
  return schema;
}
