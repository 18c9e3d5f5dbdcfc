import { isObject, refName, walkNodes, type SchemaDocument, type SchemaNode } from "./json.js";

/** The constant a definition requires for `property`, if it requires one. */
function requiredConstant(def: SchemaNode | undefined, property: string): unknown {
  if (!def || !Array.isArray(def.required) || !def.required.includes(property)) return undefined;
  const properties = def.properties;
  const node = isObject(properties) ? properties[property] : undefined;
  return isObject(node) ? node.const : undefined;
}

/** Properties a union is told apart by, most telling first. */
const CANDIDATES = ["type", "method", "resultType", "mode", "role"];

/**
 * Rewrites `anyOf` unions of `$ref`s whose branches each require a distinct
 * constant for one property (`type: "text"`, `resultType: "complete"`) into
 * AJV's `discriminator` form. The branches exclude each other, so accepting
 * the same values as before; the validator then checks only the branch the
 * value names, which is faster and reports errors from that branch alone
 * (no "text is required; data is required; …" from every sibling).
 */
export function discriminateUnions(schema: SchemaDocument): number {
  let rewritten = 0;
  walkNodes(schema.$defs, (node) => {
    if (!Array.isArray(node.anyOf) || node.anyOf.length < 2) return;
    const targets = node.anyOf.map((branch) => refName(branch));
    if (targets.some((name) => !name || Object.keys(node.anyOf as object[]).length === 0)) return;
    for (const property of CANDIDATES) {
      const values = targets.map((name) => requiredConstant(schema.$defs[name!], property));
      if (values.some((value) => typeof value !== "string")) continue;
      if (new Set(values).size !== values.length) continue;
      node.oneOf = node.anyOf;
      delete node.anyOf;
      node.discriminator = { propertyName: property };
      if (node.type === undefined) node.type = "object";
      rewritten++;
      return;
    }
  });
  return rewritten;
}
