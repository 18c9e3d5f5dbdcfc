import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cloneJson, isObject, type SchemaDocument } from "../json.js";
import admitNull from "./admit-null.js";
import anyJsonValue from "./any-json-value.js";
import atLeastOne from "./at-least-one.js";
import numberNotInteger from "./number-not-integer.js";
import openObject from "./open-object.js";
import optionalOnReceipt from "./optional-on-receipt.js";
import refSiblings from "./ref-siblings.js";
import resultTypeLiterals from "./result-type-literals.js";
import standardErrorCodes from "./standard-error-codes.js";
import type { Correction, CorrectionEntry, OverlayTarget } from "./types.js";

export type { CorrectionEntry, OverlayTarget } from "./types.js";

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
  "any-json-value": anyJsonValue,
  "open-object": openObject,
};

/** Reads schema/overlay/<rev>.json under `root`. */
export function readOverlay(root: string, revision: string): CorrectionEntry[] {
  const path = join(root, "schema", "overlay", `${revision}.json`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(
      missing
        ? `${path} is missing: every pinned revision has an overlay. \`npm run codegen -- --add-revision ${revision} --schema PATH|URL\` starts one from the newest revision's; ` +
            'a revision that needs no correction has { "corrections": [] }'
        : `${path} is not JSON (${(error as Error).message}): expected { "corrections": [ { "correction": "<name>", … } ] }`,
    );
  }
  if (!isObject(parsed) || !Array.isArray(parsed.corrections)) {
    throw new Error(`${path}: expected { "corrections": [ { "correction": "<name>", … } ] }`);
  }
  return parsed.corrections as CorrectionEntry[];
}

/** Overlay files are data: the scope must be one of the two outputs, and the correction must exist. */
function correctionOf(entry: CorrectionEntry): Correction {
  if (entry.scope !== undefined && entry.scope !== "types" && entry.scope !== "validators") {
    throw new Error(`overlay correction "${entry.correction}": "scope" must be "types" or "validators" when present`);
  }
  const correction = CORRECTIONS[entry.correction];
  if (!correction) {
    throw new Error(`overlay: unknown correction "${entry.correction}"; known: ${Object.keys(CORRECTIONS).join(", ")}`);
  }
  return correction;
}

const inScope = (entry: CorrectionEntry, output: Output) => entry.scope === undefined || entry.scope === output;

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
    const correction = correctionOf(entry);
    if (inScope(entry, output)) correction(target, entry);
  }
  return target;
}

/** Whether one correction of an overlay still applies to a schema, and if not, why. */
export interface OverlayVerdict {
  entry: CorrectionEntry;
  /** False when the correction fails on this schema or changes nothing in it. */
  applies: boolean;
  /** Why it does not apply: its own error, or that it changed nothing. */
  reason?: string;
}

/**
 * Tries each correction of an overlay on a (new) schema, in order and on
 * top of those before it that applied, for both outputs: the report
 * `--add-revision` prints when it starts a revision's overlay from another's.
 * Never throws for a correction that does not fit; an unknown one is a verdict too.
 */
export function checkOverlay(schema: SchemaDocument, corrections: CorrectionEntry[]): OverlayVerdict[] {
  const verdicts: OverlayVerdict[] = corrections.map((entry) => ({ entry, applies: true }));
  for (const output of ["types", "validators"] as const) {
    let target: OverlayTarget = { output, schema: cloneJson(schema), extraErrorCodes: {} };
    corrections.forEach((entry, index) => {
      if (!verdicts[index]!.applies || !inScope(entry, output)) return;
      const trial = cloneJson(target);
      const before = JSON.stringify(trial);
      try {
        correctionOf(entry)(trial, entry);
      } catch (error) {
        verdicts[index] = { entry, applies: false, reason: (error as Error).message };
        return;
      }
      if (JSON.stringify(trial) === before) {
        verdicts[index] = { entry, applies: false, reason: `it changes nothing in this schema (${output})` };
        return;
      }
      target = trial;
    });
  }
  return verdicts;
}
