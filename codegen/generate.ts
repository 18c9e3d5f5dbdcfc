import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { eraOf, LAST_LEGACY_REVISION } from "./emit-revisions.js";
import { headerLine } from "./header.js";
import type { SchemaDocument } from "./json.js";
import { buildModel } from "./model.js";
import { applyOverlay, type CorrectionEntry } from "./overlay/index.js";

/** The files written per revision, in generated/<rev>/. */
const OUTPUT_NAMES = ["types.ts", "methods.ts", "kinds.ts", "answers.ts", "validators.js", "validators.d.ts", "index.ts"] as const;

/** One generated file: path relative to the repository root and its full text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/**
 * Checks that a schema belongs to the era its revision's date says: a
 * handshake-era schema has `InitializeRequest`, a later one does not. Catches
 * a `--schema` that names another revision's file.
 *
 * @throws Error saying which era the schema is and which the revision is.
 */
export function checkEra(revision: string, document: SchemaDocument): void {
  const handshake = Object.hasOwn(document.$defs, "InitializeRequest");
  if (handshake === (eraOf(revision) === "legacy")) return;
  throw new Error(
    `the ${revision} schema ${handshake ? "defines InitializeRequest (a handshake-era schema)" : "has no InitializeRequest (a per-request-envelope schema)"}, ` +
      `but revisions up to ${LAST_LEGACY_REVISION} are handshake-era and later ones are not: check that --schema names ${revision}'s schema.json`,
  );
}

/**
 * Generates every file of one revision in memory from its schema and overlay.
 * The emitters pull in json-schema-to-typescript, ts-morph and AJV (seconds
 * to load), so they are imported only here.
 *
 * @throws Error when a correction no longer fits the schema, or the model cannot link a request to its result.
 */
export async function generateFiles(revision: string, document: SchemaDocument, sha256: string, overlay: CorrectionEntry[]): Promise<GeneratedFile[]> {
  checkEra(revision, document);
  const [{ emitIndex }, { emitAnswerValidators, emitInputKindTable, emitMethods }, { emitTypes }, { emitValidatorDeclarations, emitValidators }] = await Promise.all(
    [import("./emit-index.js"), import("./emit-methods.js"), import("./emit-types.js"), import("./emit-validators.js")],
  );
  const forTypes = applyOverlay(document, overlay, "types").schema;
  const { schema, extraErrorCodes } = applyOverlay(document, overlay, "validators");
  const model = buildModel(revision, schema, extraErrorCodes);
  const header = headerLine(revision, sha256);
  const texts: Record<(typeof OUTPUT_NAMES)[number], string> = {
    "types.ts": await emitTypes(header, forTypes),
    "methods.ts": emitMethods(header, model),
    "kinds.ts": emitInputKindTable(header, model),
    "answers.ts": emitAnswerValidators(header, model),
    "validators.js": emitValidators(header, schema, model),
    "validators.d.ts": emitValidatorDeclarations(header, model),
    "index.ts": emitIndex(header),
  };
  return OUTPUT_NAMES.map((name) => ({ path: `generated/${revision}/${name}`, text: texts[name] }));
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Writes the files that differ from what is on disk; returns one line per file (path and size) to print. */
export function writeGenerated(root: string, files: GeneratedFile[]): string[] {
  return files.map((file) => {
    const path = join(root, file.path);
    if (!existsSync(path) || readFileSync(path, "utf8") !== file.text) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.text);
    }
    return `  ${file.path.padEnd(40)} ${kib(Buffer.byteLength(file.text)).padStart(10)}`;
  });
}

/** The paths among `files` whose text differs from the file on disk (or that are missing). */
export function staleFiles(root: string, files: GeneratedFile[]): string[] {
  return files
    .filter((file) => {
      const path = join(root, file.path);
      return !existsSync(path) || readFileSync(path, "utf8") !== file.text;
    })
    .map((file) => file.path);
}

/**
 * What generated/ holds that codegen no longer writes: a file in a revision's
 * folder it does not generate, a folder of a revision schema/sources.json no
 * longer pins, a top-level file that is not part of the index.
 */
export function strayFiles(root: string, revisions: string[], indexFiles: readonly string[]): string[] {
  const dir = join(root, "generated");
  if (!existsSync(dir)) return [];
  const strays: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `generated/${entry.name}`;
    if (!entry.isDirectory()) {
      if (!indexFiles.includes(path)) strays.push(path);
    } else if (!revisions.includes(entry.name)) {
      strays.push(`${path}/ (no such revision in schema/sources.json)`);
    } else {
      const wanted = new Set<string>(OUTPUT_NAMES);
      for (const name of readdirSync(join(dir, entry.name))) if (!wanted.has(name)) strays.push(`${path}/${name}`);
    }
  }
  return strays.sort();
}
