import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Options } from "./cli.js";
import { adapterDuties, adapterFiles, adapterPath, diffAgainstModel } from "./breaking.js";
import { emitRevisionIndex, eraOf } from "./emit-revisions.js";
import { pinExamples } from "./examples.js";
import { checkEra, generateFiles, writeGenerated } from "./generate.js";
import { parseSchema } from "./load-schema.js";
import { checkOverlay, readOverlay, type OverlayVerdict } from "./overlay/index.js";
import { defaultCacheDir, describeReadError, putInCache, readLocation, sha256Hex } from "./resolve.js";
import { isUrl, provenanceOf, readSources, recordedSource, REVISION_NAME, revisionsNewestFirst, writeRevisionEntry, type PinnedRevision } from "./sources.js";
import { inputKey, writeStamp } from "./stamp.js";

/**
 * `npm run codegen -- --add-revision REV --schema PATH|URL [--examples DIR|URL] [--no-serve]`:
 * everything a new protocol revision needs, from one command. It
 *
 * 1. reads the schema (and the examples), computing each sha256 and keeping the bytes in the cache;
 * 2. starts schema/overlay/REV.json from the newest revision's overlay (or the one already
 *    there), keeping the corrections that still apply and reporting the ones that match nothing;
 * 3. generates generated/REV/ in memory and diffs its schema against the SDK's model (the newest
 *    revision served without an adapter), printing each change as additive or breaking; then
 * 4. writes the overlay, the schema/sources.json entry, generated/REV/ and the revision index
 *    (generated/revisions.ts, tables-*.ts), which is how the revision reaches the validators, the
 *    runtime's version lists, the package exports (a pattern) and the tests (which iterate the list).
 *    A revision with breaking changes has them recorded in its entry (`"breaking"`) and is left
 *    out of what the runtime serves until runtime/adapters/REV.ts exists; the report says what
 *    that adapter must map.
 *
 * Nothing is written when a step fails, except the overlay when generation itself fails (so it
 * can be edited and the command run again, which then starts from it).
 *
 * @module
 */

const OVERLAY_COMMENT = (revision: string, from: string) =>
  `Corrections applied to the published ${revision} schema before generation, started by \`npm run codegen -- --add-revision\` from ${from}; ` +
  "each entry names a module in codegen/overlay/ and is proven by a test in test/codegen/overlay.test.ts (docs/codegen.md).";

/** The overlay report: one line per correction, kept or dropped, with its reason. */
function report(verdicts: OverlayVerdict[]): string[] {
  return verdicts.map(({ entry, applies, reason }) =>
    applies ? `    applies        ${entry.correction}` : `    matches nothing ${entry.correction}: ${reason} (dropped; its why: ${entry.why ?? "none given"})`,
  );
}

/** Runs `--add-revision`; returns the process exit code. */
export async function addRevision(root: string, options: Options): Promise<number> {
  const revision = options.addRevision!;
  const fail = (message: string, code = 1) => {
    console.error(`codegen --add-revision: ${message}`);
    return code;
  };
  if (!REVISION_NAME.test(revision)) return fail(`${JSON.stringify(revision)} is not a revision name: a revision is named by its release date, YYYY-MM-DD`, 2);
  let overlayWritten = false;
  try {
    const sources = readSources(root);
    if (sources.revisions[revision]) {
      return fail(
        `${revision} is pinned already. For a new release of it: npm run codegen -- --revision ${revision} --schema PATH|URL --accept-new-schema [--examples DIR|URL]`,
      );
    }
    const newest = revisionsNewestFirst(sources);
    const location = isUrl(options.schema!) ? options.schema! : resolve(options.schema!);
    let bytes: Buffer;
    try {
      bytes = await readLocation(location);
    } catch (error) {
      return fail(`cannot read ${location} (${describeReadError(error)}): point --schema at ${revision}'s schema.json, a file or the published URL`);
    }
    const document = parseSchema(location, bytes);
    checkEra(revision, document);
    const sha256 = sha256Hex(bytes);
    putInCache(defaultCacheDir(), sha256, bytes);

    const withExamples = newest.find((name) => sources.revisions[name]!.examples);
    const found =
      options.examples === undefined
        ? undefined
        : await pinExamples(root, options.examples, Object.keys(withExamples ? sources.revisions[withExamples]!.examples!.files : {}));

    const overlayPath = join(root, "schema", "overlay", `${revision}.json`);
    const from = existsSync(overlayPath) ? `the overlay already in ${`schema/overlay/${revision}.json`}` : `${newest[0]}'s overlay`;
    const verdicts = checkOverlay(document, readOverlay(root, existsSync(overlayPath) ? revision : newest[0]!));
    const corrections = verdicts.filter((verdict) => verdict.applies).map((verdict) => verdict.entry);
    const overlayText = `${JSON.stringify({ $comment: OVERLAY_COMMENT(revision, from), corrections }, null, 2)}\n`;
    console.log(`add-revision ${revision}`);
    console.log(`  schema   ${location} (sha256 ${sha256})`);
    if (found) {
      console.log(`  examples ${Object.keys(found.examples.files).length} files from ${found.examples.source}`);
      if (found.missing.length > 0) console.log(`           not served there (pinned for ${withExamples}): ${found.missing.join(", ")}`);
    } else {
      console.log(`  examples none pinned: the example tests skip ${revision}; pin them with --revision ${revision} --accept-new-schema --examples DIR|URL`);
    }
    console.log(`  overlay  schema/overlay/${revision}.json, from ${from}:`);
    for (const line of report(verdicts)) console.log(line);
    mkdirSync(join(root, "schema", "overlay"), { recursive: true });
    writeFileSync(overlayPath, overlayText);
    overlayWritten = true;

    const files = await generateFiles(revision, document, sha256, corrections);
    // A modern revision is diffed against the SDK's model: breaking changes hold it back until its adapter exists.
    const diff = eraOf(revision) === "modern" ? await diffAgainstModel(root, sources, revision, document, corrections) : undefined;
    for (const line of diff?.lines ?? []) console.log(line);
    const entry: PinnedRevision = {
      $comment: `Added with \`npm run codegen -- --add-revision\`: schema.json ${provenanceOf(location)}${found ? `, examples ${provenanceOf(found.examples.source)}` : ""}.`,
      schema: { source: recordedSource(root, location), sha256 },
      ...(found ? { examples: found.examples } : {}),
      ...(options.serve === false ? { serve: false } : {}),
      ...(diff && diff.breaking.length > 0 ? { breaking: diff.breaking } : {}),
    };
    writeRevisionEntry(root, revision, entry);
    for (const line of writeGenerated(root, files)) console.log(line);
    writeStamp(root, revision, inputKey(root, revision, sha256), files);
    const registered = readSources(root);
    const adapters = adapterFiles(root, registered);
    for (const line of writeGenerated(root, emitRevisionIndex(registered, adapters))) console.log(line);

    console.log(`  registered in schema/sources.json, the one list: generated/revisions.ts and tables-${eraOf(revision)}.ts follow it, so`);
    console.log(`    mcp-roundtrip/types/${revision}, validate(…, { revision: "${revision}" }) and every test that iterates the revisions have it`);
    if (eraOf(revision) === "legacy") {
      console.log("  runtime  a handshake-era revision: the versions a 2025 server answers are listed by hand in runtime/protocol/revisions.ts");
    } else if (options.serve === false) {
      console.log(`  runtime  no profile ("serve": false): the server refuses ${revision} with -32022 and the client never offers it`);
    } else if (diff && diff.breaking.length > 0 && !adapters.has(revision)) {
      console.log(`  runtime  not served: ${diff.breaking.length} breaking change(s) against ${diff.model}, and no adapter says how ${revision}'s wire shapes`);
      console.log(`           map to the SDK's model (${diff.model}). The server refuses ${revision} with -32022 and the client never offers it.`);
      console.log(`           To serve it, write ${adapterPath(revision)}: export default defineAdapter({ model: "${diff.model}", … })`);
      console.log("           (runtime/protocol/adapter.ts), mapping each breaking change where it reaches the wire:");
      for (const line of adapterDuties(diff)) console.log(line);
      console.log(`           then run npm run codegen: ${revision} is served through the adapter (docs/codegen.md, "When the revision breaks").`);
    } else if (diff && diff.breaking.length > 0) {
      console.log(`  runtime  served through ${adapterPath(revision)} (${diff.breaking.length} breaking change(s) against ${diff.model}): check it maps each one`);
    } else {
      console.log(`  runtime  served like the newest modern revision: the server accepts ${revision}, the client speaks it.`);
      console.log(`           Every change against ${diff?.model ?? "the model"} is additive (above), so nothing under runtime/ needs an edit.`);
    }
    if (!isUrl(location))
      console.log(`  note     ${location} is a local path; other clones find it only through MCP_SCHEMA_DIR or the cache. Prefer the published URL.`);
    console.log(`next: review schema/overlay/${revision}.json (add a correction for any new defect, docs/codegen.md), the diff of generated/, then npm test`);
    return 0;
  } catch (error) {
    const kept = overlayWritten ? ` schema/overlay/${revision}.json was written: fix it and run the same command again.` : "";
    return fail(`${(error as Error).message.replace(/\.?$/, ".")}${kept} Nothing else was written.`);
  }
}
