import { refName, walkNodes } from "../json.js";
import type { Correction } from "./types.js";

/** Keywords that only annotate; dropping them beside a `$ref` changes no validation outcome. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples"]);

/**
 * Stops annotations beside a `$ref` from creating new types.
 *
 * json-schema-to-typescript treats `{ $ref, description }` as a new schema and
 * names the copy `Annotations1`, `Result2`…, and folds `EmptyResult` (a bare
 * `$ref` to `Result` with its own description) into a clash. For types, such a
 * node becomes `{ tsType: "<Target>", description }`: a plain reference to
 * the one declaration that keeps its documentation. For validators the
 * annotations are dropped. A sibling that does constrain (anything not in
 * {@link ANNOTATIONS}) is an error: the overlay would have to decide what it means.
 */
const refSiblings: Correction = (target) => {
  walkNodes(target.schema.$defs, (node, pointer) => {
    if (typeof node.$ref !== "string") return;
    const siblings = Object.keys(node).filter((key) => key !== "$ref");
    for (const key of siblings) {
      if (!ANNOTATIONS.has(key)) {
        throw new Error(`overlay ref-siblings: /$defs${pointer} has "${key}" beside "$ref"; extend the overlay to handle it`);
      }
    }
    if (siblings.length === 0) return;
    const name = refName(node);
    if (target.output === "types" && name) {
      node.tsType = name;
      delete node.$ref;
    } else {
      for (const key of siblings) delete node[key];
    }
  });
};
export default refSiblings;
