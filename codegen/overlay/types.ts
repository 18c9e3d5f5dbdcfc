import type { SchemaDocument } from "../json.js";

/** What a correction may change: the schema itself and data the schema lacks. */
export interface OverlayTarget {
  /** Which output the corrected schema feeds. */
  output: "types" | "validators";
  schema: SchemaDocument;
  /** Error codes to emit beside the ones the schema defines (name → code). */
  extraErrorCodes: Record<string, number>;
}

/** One entry of schema/overlay/<rev>.json. */
export interface CorrectionEntry {
  correction: string;
  why?: string;
  /** Restricts the correction to one output; absent means both. */
  scope?: "types" | "validators";
  [option: string]: unknown;
}

/** A correction: rewrites `target` in place according to its overlay entry. */
export type Correction = (target: OverlayTarget, entry: CorrectionEntry) => void;

/** Reads a required string-array option of an overlay entry. */
export function stringList(entry: CorrectionEntry, option: string): string[] {
  const value = entry[option];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new Error(`overlay correction "${entry.correction}": "${option}" must be an array of strings`);
  }
  return value;
}

/** Reads a required string option of an overlay entry. */
export function stringOption(entry: CorrectionEntry, option: string): string {
  const value = entry[option];
  if (typeof value !== "string") {
    throw new Error(`overlay correction "${entry.correction}": "${option}" must be a string`);
  }
  return value;
}
