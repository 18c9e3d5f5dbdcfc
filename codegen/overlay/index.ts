import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cloneJson, isObject, type SchemaDocument } from "../json.js";
import admitNull from "./admit-null.js";
import atLeastOne from "./at-least-one.js";
import numberNotInteger from "./number-not-integer.js";
import optionalOnReceipt from "./optional-on-receipt.js";
import refSiblings from "./ref-siblings.js";
import resultTypeLiterals from "./result-type-literals.js";
import standardErrorCodes from "./standard-error-codes.js";
import type { Correction, CorrectionEntry, OverlayTarget } from "./types.js";

export type { OverlayTarget } from "./types.js";

/** Which generated output a corrected schema is for. */
export type Output = "types" | "validators";

/** Every correction an overlay may name, by its `correction` key. */
const CORRECTIONS: Record<string, Correction> = {
  "ref-siblings": refSiblings,
  "result-type-literals": resultTypeLiterals,
  "at-least-one": atLeastOne,
  "number-not-integer": numberNotInteger,
  "admit-null": admitNull,
  "optional-on-receipt": optionalOnReceipt,
  "standard-error-codes": standardErrorCodes,
};

/** Reads schema/overlay/<rev>.json under `root`. */
export function readOverlay(root: string, revision: string): CorrectionEntry[] {
  const path = join(root, "schema", "overlay", `${revision}.json`);
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isObject(parsed) || !Array.isArray(parsed.corrections)) {
    throw new Error(`${path}: expected { "corrections": [ { "correction": "<name>", … } ] }`);
  }
  return parsed.corrections as CorrectionEntry[];
}

/**
 * Applies the overlay's corrections, in order, to a copy of `schema`, for
 * one output: an entry with `"scope": "validators"` only shapes what is
 * accepted on the wire (a rule TypeScript cannot state, or leniency toward
 * older peers), `"types"` only the declarations; no scope means both.
 *
 * @throws Error for an unknown correction name or a correction that no longer
 * fits the schema (so a new spec release cannot silently skip a fix).
 */
export function applyOverlay(schema: SchemaDocument, corrections: CorrectionEntry[], output: Output): OverlayTarget {
  const target: OverlayTarget = { output, schema: cloneJson(schema), extraErrorCodes: {} };
  for (const entry of corrections) {
    if (entry.scope !== undefined && entry.scope !== "types" && entry.scope !== "validators") {
      throw new Error(`overlay correction "${entry.correction}": "scope" must be "types" or "validators" when present`);
    }
    if (entry.scope !== undefined && entry.scope !== output) continue;
    const correction = CORRECTIONS[entry.correction];
    if (!correction) {
      throw new Error(`overlay: unknown correction "${entry.correction}"; known: ${Object.keys(CORRECTIONS).join(", ")}`);
    }
    correction(target, entry);
  }
  return target;
}
