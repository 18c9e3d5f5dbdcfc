import { relative } from "node:path";
import { addRevision } from "./add-revision.js";
import { adapterFiles } from "./breaking.js";
import { type Options, parseArgs } from "./cli.js";
import { pinExamples } from "./examples.js";
import { emitRevisionIndex, INDEX_FILES } from "./emit-revisions.js";
import { type GeneratedFile, generateFiles, staleFiles, strayFiles, writeGenerated } from "./generate.js";
import { loadRevisionSchema } from "./load-schema.js";
import { readOverlay } from "./overlay/index.js";
import { isUrl, readSources, revisionsNewestFirst, writeExamplesPin, writeSchemaPin, type PinnedSource, type SourcesFile } from "./sources.js";
import { inputKey, stampHolds, writeStamp } from "./stamp.js";

export { parseArgs, type Options } from "./cli.js";
export type { GeneratedFile } from "./generate.js";

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
  sources: SourcesFile = readSources(root),
): Promise<{ files: GeneratedFile[]; schemaSha256: string; skipped: boolean; newPin?: PinnedSource }> {
  const pinned = sources.revisions[revision];
  if (!pinned) {
    throw new Error(
      `no revision ${revision} in schema/sources.json (known: ${Object.keys(sources.revisions).join(", ")}). ` +
        `To add it: npm run codegen -- --add-revision ${revision} --schema PATH|URL [--examples DIR|URL]`,
    );
  }
  const { loaded, adopted } = await loadRevisionSchema(root, revision, pinned, {
    override: options.schema,
    accept: options.acceptNewSchema && !options.check,
    check: options.check,
  });
  if (skipWhen?.(loaded.sha256)) return { files: [], schemaSha256: loaded.sha256, skipped: true };
  const files = await generateFiles(revision, loaded.document, loaded.sha256, readOverlay(root, revision));
  const generated = { files, schemaSha256: loaded.sha256, skipped: false };
  return adopted === undefined ? generated : { ...generated, newPin: adopted };
}

/** Records an adopted schema pin (and example pins, with --examples) in schema/sources.json; prints what changed. */
async function recordPins(root: string, revision: string, options: Options, newPin: PinnedSource | undefined): Promise<void> {
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
  if (options.examples !== undefined) {
    const known = Object.keys(readSources(root).revisions[revision]?.examples?.files ?? {});
    const { examples, missing } = await pinExamples(root, options.examples, known);
    writeExamplesPin(root, revision, examples);
    console.log(`  schema/sources.json: ${Object.keys(examples.files).length} examples of ${revision} pinned from ${examples.source}`);
    if (missing.length > 0) console.warn(`  note: ${missing.length} example(s) pinned before are not there any more: ${missing.join(", ")}`);
  }
}

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
  if (options.addRevision !== undefined) return addRevision(root, options);
  const stale: string[] = [];
  let revisions: string[];
  try {
    const sources = readSources(root);
    revisions = options.revisions ?? (options.schema ? [sources.defaultRevision] : revisionsNewestFirst(sources));
    if ((options.schema || options.examples) && revisions.length !== 1) {
      const what = options.schema ? "--schema names one schema.json" : "--examples names one revision's examples";
      console.error(`${what}: pick its revision with a single --revision`);
      return 2;
    }
    for (const revision of revisions) {
      // --check may trust the stamp of an earlier identical generation; see stamp.ts.
      let key = "";
      const unchanged = (schemaSha256: string) => {
        key = inputKey(root, revision, schemaSha256);
        return options.check && !options.noStamp && stampHolds(root, revision, key);
      };
      const { files, newPin, skipped } = await generateRevision(root, revision, options, unchanged, sources);
      if (options.check) {
        const differing = staleFiles(root, files);
        stale.push(...differing);
        if (!skipped && differing.length === 0) writeStamp(root, revision, key, files);
        continue;
      }
      for (const line of writeGenerated(root, files)) console.log(line);
      writeStamp(root, revision, key, files);
      await recordPins(root, revision, options, newPin);
    }
    // The index follows schema/sources.json alone: every run writes (or checks) it whole.
    // What is served also follows the adapter files present (runtime/adapters/<rev>.ts, read as paths only).
    const current = readSources(root);
    const index = emitRevisionIndex(current, adapterFiles(root, current));
    if (options.check) stale.push(...staleFiles(root, index));
    else for (const line of writeGenerated(root, index)) console.log(line);
    const strays = strayFiles(root, revisionsNewestFirst(sources), INDEX_FILES);
    if (options.check) stale.push(...strays.map((path) => `${path} (not generated any more)`));
    else for (const path of strays) console.warn(`  ${path}: not generated any more; delete it`);
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
