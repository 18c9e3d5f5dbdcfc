// The API reference: typedoc over every entry point in package.json "exports".
//
//   node scripts/docs.mjs          (npm run docs)  HTML into api-reference/ (gitignored)
//   node scripts/docs.mjs --check  (npm test)      validation only, nothing written
//
// Both fail on any warning: an undocumented public export (notDocumented), a
// {@link} that resolves to nothing (invalidLink), a public signature naming a
// type no entry exports (notExported). The pages of docs/ are in the site too,
// the guide first, and their ```mermaid diagrams are drawn by the Mermaid of
// tools/mermaid, copied into the site (no network when building or reading). Runs on the package in the current
// directory, so test/package/apiref.test.ts can point it at a planted fixture.
//
// typedoc comes from tools/typedoc (its own package-lock, installed on first
// use), which pins the TypeScript 6 it runs on: the repo's typescript@7 has no
// compiler API for it.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { docsPagesOf } from "./docs-pages.mjs";
import { ensureTools } from "./run.mjs";

ensureTools("typedoc", "node_modules/typedoc/package.json");
const { Application, JSX, OptionDefaults, ReflectionKind, RendererEvent, TSConfigReader } = await import("../tools/typedoc/index.mjs");

/** Where `npm run docs` writes the HTML reference. */
export const OUT_DIR = "api-reference";

/**
 * Generated declarations (generated/) take their comments from the schema's
 * descriptions, and the schema leaves many members undescribed (`type`
 * discriminants, `_meta`, the method tables' `params`/`result`). Those are not
 * counted as gaps; every other check (links, exports) still covers them.
 */
const GENERATED_UNDOCUMENTED = /, defined in [^,]+\/generated\/[^,]+, does not have any documentation$/;

/**
 * Members of the object patterns that type-level readers match on
 * (`S extends { const: infer C }`) and of symbol-keyed brands: typedoc lists
 * them as properties, but no value ever has them, so there is nothing to document.
 */
const TYPE_LEVEL_PATTERN = /^mcp-roundtrip\/server\.(FromSchema|PromptArgs)\.__type\.|\.\[ESCALATION\] \(Property\)/;

const REPO_ROOT = realpathSync(fileURLToPath(new URL("..", import.meta.url)));

/** Names this repo's public types are built from but that no entry exports on purpose (checked for this repo only). */
const REPO_NOT_EXPORTED = [
  // Type-level helpers that public types are computed with; a reader never names them.
  "Flatten",
  "Guarded",
  "RevisionValidators",
  "Validator",
  "AllOf",
  "Branches",
  "OfType",
  "ObjectOf",
  "ArrayOf",
  "Expressions",
  "UnionToIntersection",
  "Bindings",
  "ObjectOr",
  "HandlerArgs",
  // The revision maps typed methods, input kinds and pinned clients are read from, and the helpers over them.
  "RevisionMethodMaps",
  "InputKindMaps",
  "MergedKinds",
  "SpokenRevision",
  "KeysOfUnion",
  "EntryOf",
  "Newest",
  "ClientMap",
  "WithoutMeta",
  "Complete",
  "HelperResult",
  "HelperRevision",
  "ListItems",
  "SchemaRequestArgs",
  "BuiltInMethod",
  "ServedClientMaps",
  "Bare",
  "Finished",
  "AskArguments",
  // The checks that turn a \`required\` entry naming no property into a type error.
  "RequiredFix",
  "PropertiesFix",
  "ItemsFix",
  "ListFix",
  "Lent",
  "ToolSchemaFix",
];

/** The source each export's `types` is compiled from: ./dist/runtime/x.d.ts ← runtime/x.ts. */
const sourceOf = (types) => types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts");

/**
 * The entry points typedoc documents, from the `types` of every code subpath
 * in package.json "exports": source file (relative to `dir`) → the specifier
 * users import it by, which names its page.
 */
export function entryPointsOf(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const entries = Object.entries(pkg.exports).filter(([, target]) => typeof target === "object" && typeof target.types === "string");
  const pages = new Map();
  for (const [subpath, target] of entries) {
    for (const [source, value] of expandPattern(dir, sourceOf(target.types))) {
      // A file two subpaths reach (./types and ./types/2026-07-28) keeps the plain subpath's name.
      if (!pages.has(source)) pages.set(source, subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2).replace("*", value)}`);
    }
  }
  return pages;
}

/**
 * A source path as [path, value of its `*`] pairs: itself when it has no `*`;
 * for a pattern ("./types/*" ← generated/<*>/index.ts), one per folder that
 * holds the file, so every generated revision gets its page with no list here.
 */
function expandPattern(dir, source) {
  if (!source.includes("*")) return [[source, ""]];
  const [before, after] = source.split("*");
  return readdirSync(join(dir, before), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, before, entry.name + after)))
    .map((entry) => [before + entry.name + after, entry.name]);
}

/** Where Mermaid's browser build is: tools/mermaid, installed on first use by `npm run docs` (the --check run renders nothing). */
const MERMAID_SCRIPT = "node_modules/mermaid/dist/mermaid.min.js";

/**
 * Runs in every page of the site: turns each ```mermaid block (left
 * unhighlighted by typedoc) into a diagram, loading Mermaid from the site's
 * own assets only on a page that has one.
 */
const MERMAID_LOADER = `// Written by scripts/docs.mjs: draws the docs pages' \`\`\`mermaid blocks with the Mermaid copied beside this file.
(() => {
  const blocks = [...document.querySelectorAll("pre > code.mermaid")];
  if (blocks.length === 0) return;
  const diagrams = blocks.map((code) => {
    const diagram = document.createElement("div");
    diagram.className = "mermaid";
    diagram.textContent = code.textContent;
    code.parentElement.replaceWith(diagram);
    return diagram;
  });
  const script = document.createElement("script");
  script.src = new URL("mermaid.min.js", document.currentScript.src).href;
  script.onload = () => {
    const dark = document.documentElement.dataset.theme === "dark" || (document.documentElement.dataset.theme !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
    globalThis.mermaid.initialize({ startOnLoad: false, theme: dark ? "dark" : "default" });
    globalThis.mermaid.run({ nodes: diagrams });
  };
  document.head.append(script);
})();
`;

/** Adds Mermaid to the rendered site: the loader on every page, Mermaid and the loader in assets/. */
function drawMermaidDiagrams(app, mermaidScript) {
  app.renderer.hooks.on("body.end", (context) => JSX.createElement("script", { src: context.relativeURL("assets/mermaid-loader.js") }));
  app.renderer.on(RendererEvent.END, (event) => {
    const assets = join(event.outputDirectory, "assets");
    mkdirSync(assets, { recursive: true });
    copyFileSync(mermaidScript, join(assets, "mermaid.min.js"));
    writeFileSync(join(assets, "mermaid-loader.js"), MERMAID_LOADER);
  });
}

/**
 * Runs typedoc on the package in `dir`. Returns the number of problems
 * (typedoc has printed each); 0 means the reference is complete.
 */
export async function buildApiReference({ dir = process.cwd(), check = false } = {}) {
  const entries = entryPointsOf(dir);
  const app = await Application.bootstrapWithPlugins(
    {
      entryPoints: [...entries.keys()].map((entry) => join(dir, entry)),
      entryPointStrategy: "resolve",
      tsconfig: join(dir, "tsconfig.build.json"),
      out: join(dir, OUT_DIR),
      readme: "none",
      // The guide and the reference pages of docs/; their links to each other become links between pages.
      projectDocuments: docsPagesOf(dir),
      // Diagrams are drawn in the browser (drawMermaidDiagrams), so their source stays as text.
      ignoredHighlightLanguages: ["mermaid"],
      // The docs pages show nginx configuration too.
      highlightLanguages: [...OptionDefaults.highlightLanguages, "nginx"],
      // Source links name the public repository, whatever remote (if any) this clone has.
      disableGit: true,
      sourceLinkTemplate: "https://github.com/mcp-roundtrip/mcp-roundtrip/blob/main/{path}#L{line}",
      excludeInternal: true,
      excludePrivate: true,
      intentionallyNotExported: realpathSync(dir) === REPO_ROOT ? REPO_NOT_EXPORTED : [],
      // json-schema-to-typescript writes @minItems/@maxItems on bounded arrays; they are facts worth showing.
      blockTags: [...OptionDefaults.blockTags, "@minItems", "@maxItems"],
      // `npm test` has typechecked already; typedoc only reads the program.
      skipErrorChecking: true,
      // rewrittenLink stays off: a link to a member of an inline object type (the schema's
      // `{@link ClientCapabilities.sampling.tools}`) lands on its parent's page, which is where that member is shown.
      validation: { notExported: true, invalidLink: true, rewrittenLink: false, notDocumented: true, unusedMergeModuleWith: true },
      treatWarningsAsErrors: true,
      treatValidationWarningsAsErrors: true,
    },
    [new TSConfigReader()],
  );
  if (!check) drawMermaidDiagrams(app, join(ensureTools("mermaid", MERMAID_SCRIPT), MERMAID_SCRIPT));
  let generatedUndocumented = 0;
  const warn = app.logger.validationWarning.bind(app.logger);
  app.logger.validationWarning = (message, ...rest) => {
    if (GENERATED_UNDOCUMENTED.test(message)) generatedUndocumented += 1;
    else if (TYPE_LEVEL_PATTERN.test(message)) return;
    else warn(message, ...rest);
  };
  const project = await app.convert();
  if (project) {
    // Each entry's page is named by its import specifier (`mcp-roundtrip/server`), not by its source path.
    const specifierOf = new Map([...entries].map(([source, specifier]) => [realpathSync(join(dir, source)), specifier]));
    // (With one entry the project itself is the module and has no module children.)
    for (const module of (project.children ?? []).filter((child) => child.kindOf(ReflectionKind.Module))) {
      const file = module.sources?.[0]?.fullFileName;
      const specifier = file === undefined ? undefined : specifierOf.get(realpathSync(file));
      if (specifier !== undefined) module.name = specifier;
    }
    // Validate even after conversion warnings (typedoc's CLI stops there), so one run lists every gap.
    app.validate(project);
    if (!check && app.logger.errorCount + app.logger.warningCount === 0) await app.generateOutputs(project);
  }
  const problems = app.logger.errorCount + app.logger.warningCount + (project ? 0 : 1);
  if (generatedUndocumented > 0) {
    console.error(`typedoc: ${generatedUndocumented} generated members without a schema description were not counted as gaps`);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes("--check");
  const problems = await buildApiReference({ check });
  if (problems > 0) {
    console.error(`✗ API reference: ${problems} problem(s) above; document the export, fix the link, or mark it @internal`);
    process.exit(1);
  }
  console.error(check ? "API reference: complete" : `API reference: ${OUT_DIR}/index.html`);
}
