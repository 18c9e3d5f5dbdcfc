// Bundles the entries of the built package in place: dist/runtime/entries/server.js
// (and every other entry) becomes one module plus shared and lazy chunks
// (dist/runtime/chunks/), instead of the ~140-module graph tsc emits. A Node ES module costs about a third of a millisecond to resolve,
// read and compile before any of its code runs, so the graph was most of a
// cold start (issue 26: a server imported in ~60 ms, ~35 ms bundled).
//
// Every public entry (each `exports` target, the CLI, the `#…` import
// targets) is bundled in one esbuild run with code splitting, so a module
// lands in exactly one output and a class (`McpError`,
// `RequestStateSecurity`…) exists once however a program imports it. What
// the generated `./types` entries reach stays the per-file module tsc
// emitted, and the bundles import it from there. Dynamic imports stay lazy
// (chunks), bare specifiers (`node:*`, dependencies, `#stdio-spawn`,
// `#schema-compiler`) stay as they are, and the source maps chain through
// tsc's to the .ts the package ships. The per-file modules tsc emitted stay
// in dist/ as well (unused by the entries). Run by scripts/build.mjs after tsc.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = join(root, "dist");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** The export targets (every condition) of `value`, as paths under the package root. */
function targetsOf(value) {
  if (typeof value === "string") return [value];
  return Object.values(value ?? {}).flatMap(targetsOf);
}

/** Relative specifiers a built module imports, statically or dynamically. */
function relativeImportsOf(file) {
  const source = readFileSync(file, "utf8");
  const found = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)) found.push(match[1]);
  return found;
}

/** Every module reachable from `starts` through relative imports. */
function closureOf(starts) {
  const seen = new Set();
  const queue = [...starts];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const specifier of relativeImportsOf(file)) queue.push(resolve(dirname(file), specifier));
  }
  return seen;
}

/** Subdirectories of `dir` (the revisions of `./types/*`). */
function subdirectories(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

const exported = Object.entries(pkg.exports)
  .filter(([subpath]) => subpath !== "./package.json")
  .flatMap(([subpath, value]) => {
    if (!subpath.includes("*")) return targetsOf(value);
    // A pattern ("./types/*"): every directory it can name that has the file.
    return targetsOf(value).flatMap((target) => {
      const [before, after] = target.split("*");
      return subdirectories(join(root, before)).map((name) => `${before}${name}${after}`);
    });
  })
  .filter((target) => target.endsWith(".js") && existsSync(join(root, target)))
  .map((target) => join(root, target));

// Bundled in place: every entry a program imports by name, the CLI and the targets of the
// `#…` imports (one build, so each module lands in exactly one output). Per-file: what the
// generated `./types` entries reach, which a bundle imports from there.
const isGenerated = (file) => relative(dist, file).startsWith("generated");
const bins = Object.values(pkg.bin ?? {}).map((target) => join(root, target));
const imported = targetsOf(pkg.imports).map((target) => join(root, target));
const bundled = [...new Set([...exported.filter((file) => !isGenerated(file)), ...bins, ...imported])];
const others = exported.filter(isGenerated);
const perFile = closureOf(others);
for (const entry of bundled) {
  if (perFile.has(entry)) throw new Error(`bundle-entries: ${relative(root, entry)} is also reached from a per-file module; it cannot be bundled`);
}

/** What a bundle imports a per-file module as, until each output file's own relative path replaces it. */
const PER_FILE = "@@per-file/";

const result = await build({
  entryPoints: bundled,
  outbase: join(dist, "runtime"),
  outdir: join(dist, "runtime"),
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  allowOverwrite: true,
  write: false,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  sourcemap: "linked",
  sourcesContent: false,
  // Readable output: no minification of any kind, so a stack trace's or an error excerpt's line is one
  // source line, with the names the source gives (esbuild only renames what would collide in one scope).
  // Worth its bytes (the 2026 validators grow from ~0.6 to ~0.9 MB); test/package/readable-dist.test.ts
  // holds every shipped line under 1,000 characters. Names stay without keepNames' __name wrappers.
  minifyWhitespace: false,
  minifyIdentifiers: false,
  minifySyntax: false,
  keepNames: false,
  logLevel: "warning",
  plugins: [
    {
      name: "per-file-modules",
      setup(builder) {
        builder.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === "entry-point") return undefined;
          if (!args.path.startsWith(".")) return { path: args.path, external: true };
          const file = resolve(args.resolveDir, args.path);
          if (!perFile.has(file)) return undefined;
          return { path: PER_FILE + relative(dist, file), external: true };
        });
      },
    },
  ],
});
// A chunk that only re-exports has a map with no sources: it ships without one.
const sourceless = new Set(
  result.outputFiles.filter((output) => output.path.endsWith(".map") && JSON.parse(output.text).sources.length === 0).map((output) => output.path),
);
for (const output of result.outputFiles) {
  if (sourceless.has(output.path)) continue;
  let text = output.text;
  if (sourceless.has(`${output.path}.map`)) text = text.replace(/\n\/\/# sourceMappingURL=\S+\n?$/, "\n");
  if (output.path.endsWith(".js")) {
    // The path from this output's own folder (entries, chunks, state…) to the per-file module.
    text = text.replace(/(["'])@@per-file\/([^"']+)\1/g, (_, quote, path) => {
      const target = relative(dirname(output.path), join(dist, path));
      return quote + (target.startsWith(".") ? target : `./${target}`) + quote;
    });
  }
  mkdirSync(dirname(output.path), { recursive: true });
  writeFileSync(output.path, text);
}
