import { nodeAt } from "../json.js";
import { stringList, type Correction } from "./types.js";

/**
 * Widens `integer` to `number` where the spec's TypeScript says `number`.
 *
 * The published schema was generated with integers for arbitrary JSON values
 * and elicitation answers, so `1.5` failed validation although the spec's own
 * types accept it.
 */
const numberNotInteger: Correction = (target, entry) => {
  for (const pointer of stringList(entry, "at")) {
    const node = nodeAt(target.schema, pointer);
    if (node.type === "integer") node.type = "number";
    else if (Array.isArray(node.type) && node.type.includes("integer")) {
      node.type = node.type.map((type: unknown) => (type === "integer" ? "number" : type));
    } else {
      throw new Error(`overlay number-not-integer: ${pointer} has no integer type any more; drop it from the overlay`);
    }
  }
};
export default numberNotInteger;
