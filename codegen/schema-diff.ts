import { isObject, refName, type SchemaDocument, type SchemaNode } from "./json.js";
import type { ProtocolModel } from "./model.js";

/**
 * What changed between two revisions' schemas (each after its overlay), and
 * whether the change only adds to the older one or breaks it: a peer speaking
 * the newer revision can be answered in the older one's shapes when every
 * change is additive, and needs an adapter (runtime/adapters/<rev>.ts) when
 * one is breaking. `--add-revision` prints this diff and records the breaking
 * changes in schema/sources.json (docs/codegen.md, "When the revision breaks").
 *
 * The comparison is structural: annotations (`description`, `title` as a
 * keyword, `examples`, …) never count, `$ref`s are compared by the name they
 * point at (the definition itself is compared on its own), and a property
 * removed beside one added with the same sub-schema is reported as a probable
 * rename.
 *
 * @module
 */

/** Additive: a peer of the older revision is unaffected. Breaking: messages of the newer one need mapping. */
type ChangeKind = "additive" | "breaking";

/** One classified change. */
export interface SchemaChange {
  kind: ChangeKind;
  /** The definition (`Tool`) or method (`tools/list`) the change is in. */
  subject: string;
  /** What changed, in words, from the subject on: `renamed title → displayName?`. */
  text: string;
}

/** Keywords that describe rather than constrain: a change to them is no change to the wire. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples", "default", "deprecated", "markdownDescription", "readOnly", "writeOnly", "$schema"]);
/** Keywords compared by their own rule below; every other keyword is a constraint. */
const STRUCTURAL = new Set(["$ref", "type", "const", "enum", "properties", "required", "items", "additionalProperties", "anyOf", "oneOf", "allOf"]);
/** Definitions whose top-level properties are capabilities, named so in the report. */
const CAPABILITIES: Record<string, string> = { ClientCapabilities: "client capability", ServerCapabilities: "server capability" };

/** A schema node with its annotations removed, recursively: what two nodes must share to mean the same thing. */
function stripped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripped);
  if (!isObject(node)) return node;
  const out: SchemaNode = {};
  for (const key of Object.keys(node).sort()) {
    // Inside `properties` every key is a property name, never an annotation.
    if (!ANNOTATIONS.has(key)) out[key] = key === "properties" && isObject(node[key]) ? strippedMap(node[key]) : stripped(node[key]);
  }
  return out;
}

function strippedMap(map: SchemaNode): SchemaNode {
  const out: SchemaNode = {};
  for (const key of Object.keys(map).sort()) out[key] = stripped(map[key]);
  return out;
}

/** A canonical text of a node's meaning (sorted keys, no annotations). */
const canonical = (node: unknown): string => JSON.stringify(stripped(node));
const list = (names: Iterable<unknown>) => [...names].map((name) => JSON.stringify(name)).join(", ");

/** A node's `type` as a set, or `undefined` when it admits any type. */
function typesOf(node: SchemaNode): Set<string> | undefined {
  const type = node.type;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  return undefined;
}

/** True when every type of `inner` is admitted by `outer` (`number` admits `integer`). */
function within(inner: Set<string>, outer: Set<string>): boolean {
  return [...inner].every((type) => outer.has(type) || (type === "integer" && outer.has("number")));
}

/** Records changes found in one definition; `path` is `Definition.property.nested`. */
class Differ {
  readonly changes: SchemaChange[] = [];
  constructor(private readonly subject: string) {}

  private add(kind: ChangeKind, path: string, text: string): void {
    const where = path === this.subject ? "" : `${path.slice(this.subject.length + 1)}: `;
    this.changes.push({ kind, subject: this.subject, text: `${where}${text}` });
  }

  compare(before: unknown, after: unknown, path: string): void {
    if (!isObject(before) || !isObject(after)) {
      if (canonical(before) !== canonical(after)) this.add("breaking", path, "schema changed");
      return;
    }
    const [refBefore, refAfter] = [refName(before), refName(after)];
    if (refBefore !== undefined || refAfter !== undefined) {
      // The definition a $ref names is compared on its own; here only which one it names counts.
      if (refBefore !== refAfter)
        this.add(
          "breaking",
          path,
          `now ${refAfter ? `refers to ${refAfter}` : "an inline schema"}, was ${refBefore ? `a reference to ${refBefore}` : "an inline schema"}`,
        );
      return;
    }
    this.compareType(before, after, path);
    this.compareValues(before, after, path);
    this.compareProperties(before, after, path);
    this.compareNested(before.items, after.items, `${path}[]`, "items");
    this.compareAdditional(before.additionalProperties, after.additionalProperties, path);
    for (const keyword of ["anyOf", "oneOf"] as const) this.compareUnion(before[keyword], after[keyword], path, keyword);
    this.compareAllOf(before.allOf, after.allOf, path);
    this.compareConstraints(before, after, path);
  }

  private compareType(before: SchemaNode, after: SchemaNode, path: string): void {
    const [was, is] = [typesOf(before), typesOf(after)];
    if (was === undefined && is === undefined) return;
    const show = (types: Set<string> | undefined) => (types === undefined ? "any type" : [...types].join(" | "));
    if (was === undefined) this.add("breaking", path, `type narrowed from any type to ${show(is)}`);
    else if (is === undefined) this.add("additive", path, `type widened from ${show(was)} to any type`);
    else if (within(was, is) && within(is, was)) return;
    else if (within(is, was)) this.add("breaking", path, `type narrowed from ${show(was)} to ${show(is)}`);
    else if (within(was, is)) this.add("additive", path, `type widened from ${show(was)} to ${show(is)}`);
    else this.add("breaking", path, `type changed from ${show(was)} to ${show(is)}`);
  }

  private compareValues(before: SchemaNode, after: SchemaNode, path: string): void {
    const [hadConst, hasConst] = [Object.hasOwn(before, "const"), Object.hasOwn(after, "const")];
    if (hadConst && hasConst && canonical(before.const) !== canonical(after.const)) {
      this.add("breaking", path, `const changed from ${JSON.stringify(before.const)} to ${JSON.stringify(after.const)}`);
    } else if (hasConst && !hadConst) this.add("breaking", path, `now the constant ${JSON.stringify(after.const)}`);
    else if (hadConst && !hasConst) this.add("additive", path, `no longer the constant ${JSON.stringify(before.const)}`);
    const [was, is] = [before.enum, after.enum];
    if (Array.isArray(was) && Array.isArray(is)) {
      const [old, now] = [new Set(was.map(canonical)), new Set(is.map(canonical))];
      const added = is.filter((value) => !old.has(canonical(value)));
      const removed = was.filter((value) => !now.has(canonical(value)));
      if (added.length > 0) this.add("additive", path, `new enum value${added.length > 1 ? "s" : ""} ${list(added)}`);
      if (removed.length > 0) this.add("breaking", path, `enum value${removed.length > 1 ? "s" : ""} removed: ${list(removed)}`);
    } else if (Array.isArray(is)) this.add("breaking", path, `now restricted to the values ${list(is)}`);
    else if (Array.isArray(was)) this.add("additive", path, `no longer restricted to the values ${list(was)}`);
  }

  private compareProperties(before: SchemaNode, after: SchemaNode, path: string): void {
    const was = isObject(before.properties) ? before.properties : {};
    const is = isObject(after.properties) ? after.properties : {};
    const requiredBefore = new Set(Array.isArray(before.required) ? before.required : []);
    const requiredAfter = new Set(Array.isArray(after.required) ? after.required : []);
    const removed = Object.keys(was).filter((name) => !Object.hasOwn(is, name));
    const added = Object.keys(is).filter((name) => !Object.hasOwn(was, name));
    // A removed property beside an added one with the same meaning is most likely a rename: report it as one.
    for (const name of [...removed]) {
      const twin = added.find((candidate) => canonical(is[candidate]) === canonical(was[name]) && requiredAfter.has(candidate) === requiredBefore.has(name));
      if (twin === undefined) continue;
      removed.splice(removed.indexOf(name), 1);
      added.splice(added.indexOf(twin), 1);
      this.add("breaking", path, `renamed ${name} → ${twin}?`);
    }
    for (const name of removed) this.add("breaking", path, `property ${name} removed`);
    const capability = path === this.subject ? CAPABILITIES[this.subject] : undefined;
    for (const name of added) {
      if (requiredAfter.has(name)) this.add("breaking", path, `new required property ${name}`);
      else this.add("additive", path, capability ? `new ${capability} ${name}` : `new optional property ${name}`);
    }
    for (const name of Object.keys(was)) {
      if (!Object.hasOwn(is, name)) continue;
      if (requiredAfter.has(name) && !requiredBefore.has(name)) this.add("breaking", path, `${name} changed from optional to required`);
      if (requiredBefore.has(name) && !requiredAfter.has(name)) this.add("additive", path, `${name} changed from required to optional`);
      this.compare(was[name], is[name], `${path}.${name}`);
    }
  }

  private compareNested(before: unknown, after: unknown, path: string, keyword: string): void {
    if (before === undefined && after === undefined) return;
    if (before === undefined) this.add("breaking", path, `new constraint ${keyword}`);
    else if (after === undefined) this.add("additive", path, `constraint ${keyword} dropped`);
    else this.compare(before, after, path);
  }

  private compareAdditional(before: unknown, after: unknown, path: string): void {
    // Absent, true and {} all admit any extra property.
    const open = (value: unknown) => value === undefined || value === true || (isObject(value) && Object.keys(stripped(value) as SchemaNode).length === 0);
    if (open(before) && open(after)) return;
    if (after === false) this.add("breaking", path, "closed to unknown properties (additionalProperties: false)");
    else if (open(after)) this.add("additive", path, "open to unknown properties");
    else if (before === false || open(before)) this.add("breaking", path, "unknown properties now constrained (additionalProperties)");
    else this.compare(before, after, `${path}{}`);
  }

  private compareUnion(before: unknown, after: unknown, path: string, keyword: string): void {
    if (before === undefined && after === undefined) return;
    if (!Array.isArray(before) || !Array.isArray(after)) {
      if (Array.isArray(after)) this.add("breaking", path, `now one of ${after.length} schemas (${keyword})`);
      else this.add("additive", path, `${keyword} dropped`);
      return;
    }
    const names = (branches: unknown[]) => branches.map(refName).filter((name): name is string => name !== undefined);
    const [was, is] = [names(before), names(after)];
    for (const name of is.filter((name) => !was.includes(name))) this.add("additive", path, `new member ${name}`);
    for (const name of was.filter((name) => !is.includes(name))) this.add("breaking", path, `member ${name} removed`);
    const inline = (branches: unknown[]) => branches.filter((branch) => refName(branch) === undefined);
    const [oldInline, newInline] = [inline(before), inline(after)];
    if (oldInline.length === newInline.length) {
      oldInline.forEach((branch, index) => {
        this.compare(branch, newInline[index], `${path}|${index}`);
      });
      return;
    }
    const known = new Set(oldInline.map(canonical));
    const current = new Set(newInline.map(canonical));
    const gained = newInline.filter((branch) => !known.has(canonical(branch))).length;
    const lost = oldInline.filter((branch) => !current.has(canonical(branch))).length;
    if (gained > 0) this.add("additive", path, `${gained} new inline member${gained > 1 ? "s" : ""} (${keyword})`);
    if (lost > 0) this.add("breaking", path, `${lost} inline member${lost > 1 ? "s" : ""} removed or changed (${keyword})`);
  }

  private compareAllOf(before: unknown, after: unknown, path: string): void {
    if (before === undefined && after === undefined) return;
    if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
      before.forEach((part, index) => {
        this.compare(part, after[index], `${path}&${index}`);
      });
    } else if (canonical(before) !== canonical(after)) this.add("breaking", path, "allOf changed");
  }

  private compareConstraints(before: SchemaNode, after: SchemaNode, path: string): void {
    const keywords = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const keyword of [...keywords].sort()) {
      if (ANNOTATIONS.has(keyword) || STRUCTURAL.has(keyword)) continue;
      const [had, has] = [Object.hasOwn(before, keyword), Object.hasOwn(after, keyword)];
      if (had && !has) this.add("additive", path, `constraint ${keyword} dropped`);
      else if (!had && has) this.add("breaking", path, `new constraint ${keyword}: ${JSON.stringify(after[keyword])}`);
      else if (canonical(before[keyword]) !== canonical(after[keyword])) {
        this.add("breaking", path, `constraint ${keyword} changed from ${JSON.stringify(before[keyword])} to ${JSON.stringify(after[keyword])}`);
      }
    }
  }
}

/**
 * The changes between two schemas' definitions: new, removed and (by equal
 * meaning) renamed definitions, then each shared definition compared
 * property by property.
 */
export function diffDefinitions(before: SchemaDocument, after: SchemaDocument): SchemaChange[] {
  const [was, is] = [before.$defs, after.$defs];
  const removed = Object.keys(was).filter((name) => !Object.hasOwn(is, name));
  const added = Object.keys(is).filter((name) => !Object.hasOwn(was, name));
  const changes: SchemaChange[] = [];
  for (const name of [...removed]) {
    const twin = added.find((candidate) => canonical(is[candidate]) === canonical(was[name]));
    if (twin === undefined) continue;
    removed.splice(removed.indexOf(name), 1);
    added.splice(added.indexOf(twin), 1);
    changes.push({ kind: "breaking", subject: name, text: `definition renamed ${name} → ${twin}?` });
  }
  for (const name of removed) changes.push({ kind: "breaking", subject: name, text: "definition removed" });
  for (const name of added) changes.push({ kind: "additive", subject: name, text: "new definition" });
  for (const name of Object.keys(was).sort()) {
    if (!Object.hasOwn(is, name)) continue;
    const differ = new Differ(name);
    differ.compare(was[name], is[name], name);
    changes.push(...differ.changes);
  }
  return changes;
}

/** The changes between two models' methods and notifications: new, removed, or linked to other definitions. */
function diffMethods(before: ProtocolModel, after: ProtocolModel): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const what = (direction: string) => (direction === "input" ? "input-request kind" : direction === "server" ? "server-to-client method" : "method");
  const old = new Map(before.methods.map((entry) => [entry.method, entry]));
  const now = new Map(after.methods.map((entry) => [entry.method, entry]));
  for (const [method, entry] of now) {
    const was = old.get(method);
    if (was === undefined) {
      changes.push({ kind: "additive", subject: method, text: `new ${what(entry.direction)}` });
      continue;
    }
    if (was.result !== entry.result) changes.push({ kind: "breaking", subject: method, text: `result is now ${entry.result}, was ${was.result}` });
    if (was.params !== entry.params)
      changes.push({ kind: "breaking", subject: method, text: `params are now ${entry.params ?? "inline"}, were ${was.params ?? "inline"}` });
    if (was.inputRequired && !entry.inputRequired) changes.push({ kind: "breaking", subject: method, text: "may no longer return input_required" });
    if (!was.inputRequired && entry.inputRequired) changes.push({ kind: "additive", subject: method, text: "may now return input_required" });
  }
  for (const [method, entry] of old) if (!now.has(method)) changes.push({ kind: "breaking", subject: method, text: `${what(entry.direction)} removed` });
  const oldNotes = new Map(before.notifications.map((entry) => [`${entry.direction} ${entry.method}`, entry]));
  const newNotes = new Map(after.notifications.map((entry) => [`${entry.direction} ${entry.method}`, entry]));
  for (const [key, entry] of newNotes)
    if (!oldNotes.has(key)) changes.push({ kind: "additive", subject: entry.method, text: `new ${entry.direction} notification` });
  for (const [key, entry] of oldNotes)
    if (!newNotes.has(key)) changes.push({ kind: "breaking", subject: entry.method, text: `${entry.direction} notification removed` });
  return changes;
}

/** A change as one line: `Tool: renamed title → displayName?`. */
export const describeChange = (change: SchemaChange): string => `${change.subject}: ${change.text}`;

/**
 * Every change from `before` to `after` (schemas after their overlays, and
 * the models built from them): methods first, then definitions, breaking
 * before additive.
 */
export function diffRevisions(before: { schema: SchemaDocument; model: ProtocolModel }, after: { schema: SchemaDocument; model: ProtocolModel }): SchemaChange[] {
  const changes = [...diffMethods(before.model, after.model), ...diffDefinitions(before.schema, after.schema)];
  return [...changes.filter((change) => change.kind === "breaking"), ...changes.filter((change) => change.kind === "additive")];
}
