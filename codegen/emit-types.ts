import { compile } from "json-schema-to-typescript";
import { Project, ts, type SourceFile } from "ts-morph";
import { refName, type SchemaDocument } from "./json.js";

/** The wrapper's name: chosen so it cannot collide with an MCP definition (there is one called `Root`). */
const WRAPPER = "McpSchemaDefinitionsWrapper";

/**
 * Declares definitions that are a bare `$ref` (`EmptyResult` → `Result`) as
 * aliases: json-schema-to-typescript folds them into their target and emits
 * no name for them at all.
 */
function addAliases(file: SourceFile, schema: SchemaDocument): void {
  for (const [name, def] of Object.entries(schema.$defs)) {
    const target = refName(def);
    if (!target || Object.keys(def).length !== 1 || file.getTypeAlias(name) || file.getInterface(name)) continue;
    const original = (typeof schema.$defs[name]?.description === "string" ? schema.$defs[name].description : undefined) as string | undefined;
    file.addTypeAlias({
      name,
      isExported: true,
      type: target,
      docs: [original ?? `Same shape as {@link ${target}}.`],
    });
  }
}

/**
 * The schema's descriptions fuse a link's text onto its target:
 * `{@link CallToolRequesttools/call}` was `{@link CallToolRequest | tools/call}`
 * upstream, and ``{@link MetaObject`_meta` key naming rules}`` was
 * ``{@link MetaObject | `_meta` key naming rules}``. A target that is no
 * definition but starts with one, followed by a method name or by text that
 * cannot continue a name (a backtick, a space), gets the pipe back, so the
 * link resolves in editors and in the API reference. Known targets, member
 * paths (`Tool.outputSchema`), piped links and anything else are left as written.
 */
export function repairFusedLinks(text: string, definitions: ReadonlySet<string>): string {
  const byLength = [...definitions].sort((a, b) => b.length - a.length);
  const fused = (rest: string) => /^[a-z][\w/]*\/[\w/]+$/.test(rest) || /^[^\w.|]/.test(rest);
  return text.replace(/\{@link ([^|}\n]+)\}/g, (link, target: string) => {
    if (definitions.has(target)) return link;
    const name = byLength.find((candidate) => target.startsWith(candidate) && fused(target.slice(candidate.length)));
    return name ? `{@link ${name} | ${target.slice(name.length).trim()}}` : link;
  });
}

/**
 * Emits types.ts: one exported type per definition, under its own name.
 *
 * json-schema-to-typescript does the translation; ts-morph then removes the
 * wrapper it needs and checks the result has exactly one declaration per
 * definition (no `Annotations1`, no clashes).
 *
 * @throws Error listing missing or surplus declarations.
 */
export async function emitTypes(header: string, schema: SchemaDocument): Promise<string> {
  const wrapper = { title: WRAPPER, type: "object", additionalProperties: false, $defs: schema.$defs };
  const raw = await compile(wrapper as never, WRAPPER, {
    bannerComment: "",
    format: false,
    additionalProperties: false,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    declareExternallyReferenced: true,
  });
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
  const file = project.createSourceFile("types.ts", raw);
  file.getInterface(WRAPPER)?.remove();
  file.getTypeAlias(WRAPPER)?.remove();
  addAliases(file, schema);
  // json-schema-to-typescript leaves members unindented without prettier;
  // the TypeScript formatter is deterministic and already loaded.
  file.formatText({ indentSize: 2, convertTabsToSpaces: true, semicolons: ts.SemicolonPreference.Insert });
  const declared = [...file.getInterfaces(), ...file.getTypeAliases()].map((node) => node.getName());
  const expected = new Set(Object.keys(schema.$defs));
  const surplus = declared.filter((name) => !expected.has(name));
  const counts = new Map<string, number>();
  for (const name of declared) counts.set(name, (counts.get(name) ?? 0) + 1);
  const duplicated = [...counts].filter(([, n]) => n > 1).map(([name]) => name);
  const missing = [...expected].filter((name) => !counts.has(name));
  if (surplus.length || duplicated.length || missing.length) {
    throw new Error(
      `codegen types: expected one declaration per definition; surplus ${JSON.stringify(surplus)}, ` +
        `duplicated ${JSON.stringify(duplicated)}, missing ${JSON.stringify(missing)}`,
    );
  }
  const text = repairFusedLinks(file.getFullText(), expected)
    // json-schema-to-typescript's provenance note names the private wrapper; it helps no reader.
    .replace(/\n \* ?\n \* This interface was referenced by `\w+`'s JSON-Schema\n \* via the `definition` "\w+"\./g, "")
    .replace(/\/\*\*\n \* This interface was referenced by `\w+`'s JSON-Schema\n \* via the `definition` "\w+"\.\n \*\/\n/g, "")
    .replace(/[ \t]+$/gm, "")
    .trim();
  return `${header}\n/* eslint-disable */\n\n${text}\n`;
}
