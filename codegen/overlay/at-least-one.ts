import { stringList, stringOption, type Correction } from "./types.js";

/**
 * Requires at least one of several optional properties.
 *
 * The spec says an InputRequiredResult carries `inputRequests`, `requestState`
 * or both; the schema makes both optional, so `{resultType:"input_required"}`
 * alone validated. Encoded as `anyOf` of single `required` branches.
 */
const atLeastOne: Correction = (target, entry) => {
  const name = stringOption(entry, "definition");
  const properties = stringList(entry, "properties");
  const def = target.schema.$defs[name];
  if (!def) throw new Error(`overlay at-least-one: no definition ${name}`);
  if (def.anyOf !== undefined) throw new Error(`overlay at-least-one: ${name} already has anyOf; merge by hand`);
  def.anyOf = properties.map((property) => ({ required: [property] }));
};
export default atLeastOne;
