import { nodeAt } from "../json.js";
import { stringList, type Correction } from "./types.js";

/** Keywords that only annotate: a node with nothing else admits any JSON value. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples"]);

/**
 * Types a member the schema leaves unconstrained as `unknown`.
 *
 * A node with only a description (`structuredContent`, an error's `data`, a
 * log message's `data`) admits any JSON value: an array, a string, `null`.
 * json-schema-to-typescript (with closed objects, as codegen runs it) writes
 * `{ [k: string]: unknown }` for it, so the spec's own example of an array
 * `structuredContent` fails to typecheck while the validator accepts it.
 * Scoped to types: the validators already accept anything there.
 */
const anyJsonValue: Correction = (target, entry) => {
  for (const pointer of stringList(entry, "at")) {
    const node = nodeAt(target.schema, pointer);
    const constraints = Object.keys(node).filter((key) => !ANNOTATIONS.has(key));
    if (constraints.length > 0) {
      throw new Error(`overlay any-json-value: ${pointer} is constrained now (${constraints.join(", ")}); drop it from the overlay`);
    }
    node.tsType = "unknown";
  }
};
export default anyJsonValue;
