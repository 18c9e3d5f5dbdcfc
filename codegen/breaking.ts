import { existsSync } from "node:fs";
import { join } from "node:path";
import { eraOf } from "./emit-revisions.js";
import type { SchemaDocument } from "./json.js";
import { loadRevisionSchema } from "./load-schema.js";
import { buildModel, type ProtocolModel } from "./model.js";
import { applyOverlay, readOverlay, type CorrectionEntry } from "./overlay/index.js";
import { carriersOf } from "./carriers.js";
import { describeChange, diffRevisions, type SchemaChange } from "./schema-diff.js";
import { revisionsNewestFirst, type SourcesFile } from "./sources.js";

/**
 * What `--add-revision` decides about a new modern revision from the diff
 * against the SDK's model (codegen/schema-diff.ts): additive only, it is
 * served as it is; breaking, it is generated but served only once
 * runtime/adapters/<rev>.ts says how its wire shapes map to the model's.
 * The breaking changes are recorded in its schema/sources.json entry, so a
 * plain `npm run codegen` re-derives what is served from that record and
 * the adapter files present (emit-revisions.ts).
 *
 * @module
 */

/** Where the adapter of a breaking revision lives, relative to the repository root. */
export const adapterPath = (revision: string): string => `runtime/adapters/${revision}.ts`;

/** True when the adapter file of `revision` exists (a read of the path: codegen never imports runtime code). */
const hasAdapter = (root: string, revision: string): boolean => existsSync(join(root, adapterPath(revision)));

/** The revisions in `sources` whose adapter file exists under `root`. */
export function adapterFiles(root: string, sources: SourcesFile): Set<string> {
  return new Set(Object.keys(sources.revisions).filter((revision) => hasAdapter(root, revision)));
}

/**
 * The SDK's model: the newest modern revision served without an adapter
 * (schema/sources.json: no `"serve": false`, no `breaking`). Handlers are
 * written against its shapes, and adapters map to and from them.
 *
 * @throws Error when no modern revision qualifies.
 */
function modelRevision(sources: SourcesFile): string {
  const model = revisionsNewestFirst(sources).find((revision) => {
    const entry = sources.revisions[revision]!;
    return eraOf(revision) === "modern" && entry.serve !== false && (entry.breaking ?? []).length === 0;
  });
  if (model === undefined) throw new Error("schema/sources.json has no modern revision served without an adapter: nothing to diff a new revision against");
  return model;
}

/** A schema as the validators see it (after its overlay) and the model built from it. */
function corrected(revision: string, document: SchemaDocument, overlay: CorrectionEntry[]): { schema: SchemaDocument; model: ProtocolModel } {
  const { schema, extraErrorCodes } = applyOverlay(document, overlay, "validators");
  return { schema, model: buildModel(revision, schema, extraErrorCodes) };
}

/** The diff of a new revision against the model, with what the report prints. */
export interface RevisionDiff {
  /** The revision diffed against (the SDK's model). */
  model: string;
  changes: SchemaChange[];
  /** Each breaking change as one line (what schema/sources.json records). */
  breaking: string[];
  /** The report: the changes, one line each. */
  lines: string[];
  /** Both sides as compared: the model's and the new revision's corrected schemas and models. */
  before: { schema: SchemaDocument; model: ProtocolModel };
  after: { schema: SchemaDocument; model: ProtocolModel };
}

/**
 * Diffs `document` (the new revision's schema, corrected by `overlay`)
 * against the model revision's pinned schema (corrected by its own overlay).
 *
 * @throws Error when the model's schema cannot be found (the resolver's message says where it looked).
 */
export async function diffAgainstModel(
  root: string,
  sources: SourcesFile,
  revision: string,
  document: SchemaDocument,
  overlay: CorrectionEntry[],
): Promise<RevisionDiff> {
  const model = modelRevision(sources);
  const { loaded } = await loadRevisionSchema(root, model, sources.revisions[model]!, { accept: false });
  const before = corrected(model, loaded.document, readOverlay(root, model));
  const after = corrected(revision, document, overlay);
  const changes = diffRevisions(before, after);
  const breaking = changes.filter((change) => change.kind === "breaking");
  const lines = [`  diff     against ${model} (the SDK's model), both after their overlays: ${changes.length} change(s), ${breaking.length} breaking`];
  for (const change of changes) lines.push(`    ${change.kind.padEnd(9)} ${describeChange(change)}`);
  return { model, changes, breaking: breaking.map(describeChange), lines, before, after };
}

/** What the adapter of a breaking revision must map, one block per breaking change. */
export function adapterDuties(diff: RevisionDiff): string[] {
  const lines: string[] = [];
  for (const change of diff.changes.filter((each) => each.kind === "breaking")) {
    lines.push(`             ${describeChange(change)}`);
    // What was removed is carried only by the model's messages: look there when the new revision has none.
    let carriers = carriersOf(change.subject, diff.after.schema, diff.after.model);
    if (carriers.results.length + carriers.params.length + carriers.notifications.length === 0) {
      carriers = carriersOf(change.subject, diff.before.schema, diff.before.model);
    }
    const { results, params, notifications } = carriers;
    if (results.length > 0) lines.push(`               results (model → wire): ${results.join(", ")}`);
    if (params.length > 0) lines.push(`               request params (wire → model): ${params.join(", ")}`);
    if (notifications.length > 0) lines.push(`               notifications (model → wire): ${notifications.join(", ")}`);
    if (results.length + params.length + notifications.length === 0) lines.push("               (no message of the revision carries it: nothing to map)");
  }
  return lines;
}
