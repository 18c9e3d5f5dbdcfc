import { isObject } from "../json.js";
import { stringList, stringOption, type Correction } from "./types.js";

/**
 * Narrows every `resultType: string` to its literal.
 *
 * The spec's prose fixes `resultType` to `"complete"` on ordinary results and
 * `"input_required"` on an InputRequiredResult, but the schema types it as
 * `string`. Without literals the result unions are not discriminated, and an
 * invalid complete result (`{resultType:"complete", content:[{type:"text"}]}`)
 * validates as an InputRequiredResult. `open` lists base definitions
 * (`Result`) that stand for any result and so take the `ResultType` enum.
 */
const resultTypeLiterals: Correction = (target, entry) => {
  const defs = target.schema.$defs;
  const resultTypeName = stringOption(entry, "resultType");
  const inputRequired = stringOption(entry, "inputRequired");
  const open = new Set(stringList(entry, "open"));
  const resultType = defs[resultTypeName];
  if (!resultType) throw new Error(`overlay result-type-literals: no definition ${resultTypeName}`);
  resultType.type = "string";
  resultType.enum = ["complete", "input_required"];
  if (!defs[inputRequired]) throw new Error(`overlay result-type-literals: no definition ${inputRequired}`);
  let narrowed = 0;
  for (const [name, def] of Object.entries(defs)) {
    const properties = def.properties;
    if (!isObject(properties) || !isObject(properties.resultType)) continue;
    const description = properties.resultType.description;
    const annotated = typeof description === "string" ? { description } : {};
    if (open.has(name)) properties.resultType = { $ref: `#/$defs/${resultTypeName}` };
    else properties.resultType = { type: "string", const: name === inputRequired ? "input_required" : "complete", ...annotated };
    narrowed++;
  }
  if (narrowed === 0) throw new Error("overlay result-type-literals: no definition has a resultType property");
};
export default resultTypeLiterals;
