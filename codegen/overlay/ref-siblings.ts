import { walkNodes } from "../json.js";
import type { Correction } from "./types.js";

/** Keywords that only annotate; dropping them beside a `$ref` changes no validation outcome. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples"]);

/**
 * Drops annotation keywords that sit beside a `$ref`.
 *
 * json-schema-to-typescript treats `{ $ref, description }` as a new schema and
 * names the copy `Annotations1`, `Result2`…; without the sibling the `$ref` is
 * a plain reference and every definition keeps exactly one name. A sibling
 * that does constrain (anything not in {@link ANNOTATIONS}) is an error: the
 * overlay would have to decide what it means.
 */
const refSiblings: Correction = (target) => {
  walkNodes(target.schema.$defs, (node, pointer) => {
    if (typeof node.$ref !== "string") return;
    for (const key of Object.keys(node)) {
      if (key === "$ref") continue;
      if (!ANNOTATIONS.has(key)) {
        throw new Error(`overlay ref-siblings: /$defs${pointer} has "${key}" beside "$ref"; extend the overlay to handle it`);
      }
      delete node[key];
    }
  });
};
export default refSiblings;
