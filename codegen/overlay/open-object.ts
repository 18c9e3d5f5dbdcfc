import { stringList, type Correction } from "./types.js";

/**
 * Gives an object definition that lists no members an index signature.
 *
 * `MetaObject` is `{ "type": "object" }` plus a description of its key
 * rules: any member is allowed. json-schema-to-typescript (with closed
 * objects, as codegen runs it) emits an empty interface for it, which
 * TypeScript treats as "anything but null" and which names no member;
 * `{ [key: string]: unknown }` says what the schema says. Scoped to types.
 */
const openObject: Correction = (target, entry) => {
  for (const name of stringList(entry, "definitions")) {
    const def = target.schema.$defs[name];
    if (!def) throw new Error(`overlay open-object: no definition ${name}; drop it from the overlay`);
    const members = ["properties", "additionalProperties", "patternProperties", "$ref", "anyOf", "oneOf", "allOf"].filter((key) => key in def);
    if (def.type !== "object" || members.length > 0) {
      throw new Error(`overlay open-object: ${name} is no longer a bare object (${members.join(", ") || `type ${String(def.type)}`}); drop it from the overlay`);
    }
    def.additionalProperties = true;
  }
};
export default openObject;
