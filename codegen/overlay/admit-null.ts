import { nodeAt } from "../json.js";
import { stringList, type Correction } from "./types.js";

/**
 * Adds `null` to a node's types: the spec's TypeScript `JSONValue` includes
 * `null`, the schema's does not.
 */
const admitNull: Correction = (target, entry) => {
  for (const pointer of stringList(entry, "at")) {
    const node = nodeAt(target.schema, pointer);
    const types = Array.isArray(node.type) ? node.type : typeof node.type === "string" ? [node.type] : undefined;
    if (!types) throw new Error(`overlay admit-null: ${pointer} has no "type" to extend`);
    if (types.includes("null")) throw new Error(`overlay admit-null: ${pointer} already admits null; drop it from the overlay`);
    node.type = [...types, "null"];
  }
};
export default admitNull;
