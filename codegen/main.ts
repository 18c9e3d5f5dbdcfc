import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { headerLine } from "./header.js";
import { buildModel } from "./model.js";
import { applyOverlay, readOverlay } from "./overlay/index.js";
import { loadRevisionSchema } from "./load-schema.js";
import { isUrl, readSources, writeSchemaPin, type PinnedSource } from "./sources.js";
import { inputKey, stampHolds, writeStamp } from "./stamp.js";

/** Parsed command line of `npm run codegen`. */
export interface Options {
  check: boolean;
  acceptNewSchema: boolean;
  schema?: string;
  revisions?: string[];
  /** Regenerate even when the stamp of an identical earlier run holds. */
  noStamp?: boolean;
}

const USAGE = `usage: npm run codegen -- [--check] [--accept-new-schema] [--revision REV]… [--schema PATH|URL]
  --check               generate in memory; exit 1 naming every file that differs from generated/
  --accept-new-schema   adopt the schema read (from --schema, or MCP_SCHEMA_DIR) even if its sha256 differs from
                        schema/sources.json: records where it came from and its sha256 there, then generates
  --no-stamp            with --check, regenerate even if an identical earlier run was recorded
  --revision REV        only this revision (repeatable); default: every revision in schema/sources.json
  --schema PATH|URL     read the schema from here (needs exactly one revision; default: the default revision)
  MCP_SCHEMA_DIR        a folder with <rev>/schema.json, tried first; then the cache, then the pinned source
  MCP_SCHEMA_CACHE_DIR  the cache of checked copies (default: mcp-roundtrip/schema in the user cache directory)`;

/**
 * Parses argv.
 *
 * @throws TypeError for an unknown flag or a flag missing its value.
 */
export function parseArgs(argv: string[]): Options {
  const options: Options = { check: false, acceptNewSchema: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith("--")) throw new TypeError(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    if (arg === "--check") options.check = true;
    else if (arg === "--accept-new-schema") options.acceptNewSchema = true;
    else if (arg === "--no-stamp") options.noStamp = true;
    else if (arg === "--schema") options.schema = value();
    else if (arg.startsWith("--schema=")) options.schema = arg.slice("--schema=".length);
    else if (arg === "--revision") (options.revisions ??= []).push(value());
    else if (arg === "--help" || arg === "-h") throw new TypeError(USAGE);
    else throw new TypeError(`unknown argument ${arg}\n${USAGE}`);
  }
  return options;
}

/** The files written per revision, in generated/<rev>/. */
const OUTPUT_NAMES = ["types.ts", "methods.ts", "validators.js", "validators.d.ts", "index.ts"];

/** One generated file: path relative to the repository root and its full text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/**
 * Generates every file of one revision in memory.
 *
 * @throws Error when the schema's sha256 differs from its pin (unless accepted), or no copy of it can be found.
 */
export async function generateRevision(
  root: string,
  revision: string,
  options: Options,
  skipWhen?: (schemaSha256: string) => boolean,
): Promise<{ files: GeneratedFile[]; schemaSha256: string; skipped: boolean; newPin?: PinnedSource }> {
  const sources = readSources(root);
  const pinned = sources.revisions[revision];
  if (!pinned) throw new Error(`no revision ${revision} in schema/sources.json (known: ${Object.keys(sources.revisions).join(", ")})`);
  const { loaded, adopted } = await loadRevisionSchema(root, revision, pinned, {
    override: options.schema,
    accept: options.acceptNewSchema && !options.check,
  });
  const newPin = adopted;
  if (skipWhen?.(loaded.sha256)) return { files: [], schemaSha256: loaded.sha256, skipped: true };
  // The emitters pull in json-schema-to-typescript, ts-morph and AJV (seconds
  // to load): only when there is something to generate.
  const [{ emitIndex }, { emitMethods }, { emitTypes }, { emitValidatorDeclarations, emitValidators }] = await Promise.all([
    import("./emit-index.js"),
    import("./emit-methods.js"),
    import("./emit-types.js"),
    import("./emit-validators.js"),
  ]);
  const overlay = readOverlay(root, revision);
  const forTypes = applyOverlay(loaded.document, overlay, "types").schema;
  const { schema, extraErrorCodes } = applyOverlay(loaded.document, overlay, "validators");
  const model = buildModel(revision, schema, extraErrorCodes);
  const header = headerLine(revision, loaded.sha256);
  const dir = `generated/${revision}`;
  const texts: Record<(typeof OUTPUT_NAMES)[number], string> = {
    "types.ts": await emitTypes(header, forTypes),
    "methods.ts": emitMethods(header, model),
    "validators.js": emitValidators(header, schema, model),
    "validators.d.ts": emitValidatorDeclarations(header, model),
    "index.ts": emitIndex(header),
  };
  const files: GeneratedFile[] = OUTPUT_NAMES.map((name) => ({ path: `${dir}/${name}`, text: texts[name]! }));
  const generated = { files, schemaSha256: loaded.sha256, skipped: false };
  return newPin === undefined ? generated : { ...generated, newPin };
}

/** Files in generated/<rev>/ that the generator no longer writes (`files` null: the stamped set). */
function strayFiles(root: string, revision: string, files: GeneratedFile[] | null): string[] {
  const dir = join(root, "generated", revision);
  if (!existsSync(dir)) return [];
  const names = files ? files.map((file) => file.path) : OUTPUT_NAMES.map((name) => `generated/${revision}/${name}`);
  const wanted = new Set(names);
  return readdirSync(dir)
    .map((name) => `generated/${revision}/${name}`)
    .filter((path) => !wanted.has(path));
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Runs the generator; returns the process exit code. */
export async function main(root: string, argv: string[]): Promise<number> {
  const started = performance.now();
  let options: Options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const sources = readSources(root);
  const revisions = options.revisions ?? (options.schema ? [sources.defaultRevision] : Object.keys(sources.revisions));
  if (options.schema && revisions.length !== 1) {
    console.error("--schema names one schema.json: pick its revision with a single --revision");
    return 2;
  }
  const stale: string[] = [];
  try {
    for (const revision of revisions) {
      // --check may trust the stamp of an earlier identical generation; see stamp.ts.
      let key = "";
      const unchanged = (schemaSha256: string) => {
        key = inputKey(root, revision, schemaSha256);
        return options.check && !options.noStamp && stampHolds(root, revision, key);
      };
      const { files, newPin, skipped } = await generateRevision(root, revision, options, unchanged);
      const strays = strayFiles(root, revision, skipped ? null : files);
      if (options.check) {
        const before = stale.length;
        for (const file of files) {
          const path = join(root, file.path);
          if (!existsSync(path) || readFileSync(path, "utf8") !== file.text) stale.push(file.path);
        }
        stale.push(...strays.map((path) => `${path} (not generated any more)`));
        if (!skipped && stale.length === before) writeStamp(root, revision, key, files);
        continue;
      }
      mkdirSync(join(root, "generated", revision), { recursive: true });
      for (const file of files) {
        const path = join(root, file.path);
        if (!existsSync(path) || readFileSync(path, "utf8") !== file.text) writeFileSync(path, file.text);
        console.log(`  ${file.path.padEnd(40)} ${kib(Buffer.byteLength(file.text)).padStart(10)}`);
      }
      for (const path of strays) console.warn(`  ${path}: not generated any more; delete it`);
      writeStamp(root, revision, key, files);
      if (newPin) {
        writeSchemaPin(root, revision, newPin);
        console.log(`  schema/sources.json: ${revision} pinned to ${newPin.source} (sha256 ${newPin.sha256})`);
        if (!isUrl(newPin.source)) {
          console.warn(
            `  note: ${newPin.source} is a local path; clones on other machines find this schema only through MCP_SCHEMA_DIR. ` +
              "Prefer the published URL at the release commit: npm run codegen -- --revision REV --schema URL --accept-new-schema",
          );
        }
      }
    }
  } catch (error) {
    console.error(`codegen: ${(error as Error).message}`);
    return 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (options.check) {
    if (stale.length > 0) {
      console.error(`codegen --check: stale generated files (run npm run codegen):\n${stale.map((p) => `  ${relative(".", p) || p}`).join("\n")}`);
      return 1;
    }
    console.log(`codegen --check: generated/ is up to date (${revisions.join(", ")}; ${seconds}s)`);
    return 0;
  }
  console.log(`codegen: generated ${revisions.join(", ")} in ${seconds}s`);
  return 0;
}
