// The doc tests' machinery: pull every ```ts block out of the markdown, write
// each as its own module of a scratch project that depends on mcp-roundtrip
// the way a user's project does (node_modules/mcp-roundtrip → the package,
// resolved through its "exports" to dist/), and typecheck them all in one tsc
// run. Diagnostics come back as doc file and line, so a failure points at the
// markdown, not at the scratch file.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** One fenced code block of a markdown file. */
export interface Snippet {
  /** The markdown file, relative to the docs root (e.g. `docs/server.md`). */
  doc: string;
  /** 1-based line in `doc` of the block's first code line (the line after the fence). */
  line: number;
  /** The fence's info string: `ts`, `sh`, `json`, … (empty when the fence names none). */
  lang: string;
  code: string;
}

/** A compile error, placed in the markdown it came from. */
export interface DocDiagnostic {
  doc: string;
  line: number;
  column: number;
  /** `TS2304` and so on. */
  code: string;
  message: string;
}

/** Fence languages that hold TypeScript meant to compile on its own. */
const TYPESCRIPT_FENCES = new Set(["ts", "typescript"]);
/** Fence languages that hold JavaScript: a user's ES module (`.mjs`), typechecked as tsc checks JavaScript (`checkJs`). */
const JAVASCRIPT_FENCES = new Set(["js", "javascript", "mjs"]);

/** True when the block is TypeScript or JavaScript that the doc tests compile. */
export const isTypeScript = (snippet: Snippet): boolean => TYPESCRIPT_FENCES.has(snippet.lang) || isJavaScript(snippet);

/** True when the block is JavaScript, compiled as an `.mjs` module with `checkJs`. */
export const isJavaScript = (snippet: Snippet): boolean => JAVASCRIPT_FENCES.has(snippet.lang);

/**
 * Every fenced block of `markdown` (``` or ~~~, any length, indented or not), in order.
 *
 * @param markdown - the file's text
 * @param doc - the name diagnostics will carry (the path relative to the docs root)
 * @throws Error when a fence is never closed, naming the doc and the line it opened on
 */
export function extractSnippets(markdown: string, doc: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split("\n");
  let open: { fence: string; indent: number; lang: string; line: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^( *)(`{3,}|~{3,})\s*([^\s`]*)/.exec(text);
    if (open === undefined) {
      if (fence !== null) open = { fence: fence[2]!, indent: fence[1]!.length, lang: fence[3]!.toLowerCase(), line: index + 2, body: [] };
      return;
    }
    // A closing fence: the same character, at least as long, nothing after it.
    if (fence !== null && fence[2]!.startsWith(open.fence) && fence[3] === "" && text.trim() === fence[2]) {
      snippets.push({ doc, line: open.line, lang: open.lang, code: open.body.join("\n") });
      open = undefined;
      return;
    }
    // Content of an indented fence is indented with it (CommonMark removes up to that much).
    open.body.push(text.replace(new RegExp(`^ {0,${open.indent}}`), ""));
  });
  if (open !== undefined) throw new Error(`${doc}:${open.line - 1}: a code fence opened here is never closed`);
  return snippets;
}

/** Reads each markdown file under `root` and returns all their blocks. */
export function snippetsOf(root: string, docs: readonly string[]): Snippet[] {
  return docs.flatMap((doc) => extractSnippets(readFileSync(join(root, doc), "utf8"), doc));
}

/** Where a snippet lives in the scratch project: `<doc>/L<line>.ts` (`.mjs` for JavaScript), so tsc's own messages already name the doc. */
export const moduleFileOf = (snippet: Snippet): string => join(snippet.doc, `L${snippet.line}.${isJavaScript(snippet) ? "mjs" : "ts"}`);

/** The scratch project's compiler options: what a strict ESM user on Node would have. */
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    // Every snippet is its own module, even one without import or export.
    moduleDetection: "force",
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    // JavaScript blocks (a quick start a reader runs with `node`) are checked as strictly as TypeScript ones.
    allowJs: true,
    checkJs: true,
    types: ["node"],
  },
  include: ["**/*.ts", "**/*.mjs"],
};

export interface TypecheckResult {
  diagnostics: DocDiagnostic[];
  /** tsc's own output, for a failure message. */
  output: string;
  seconds: number;
  /** How many modules were compiled. */
  modules: number;
}

/**
 * Typechecks `snippets` (the TypeScript ones) against the package at
 * `packageRoot` in one tsc run, from a scratch project at `workDir`.
 *
 * `workDir` is emptied first. It should sit where bare imports of the snippets'
 * other packages (express, zod, @types/node…) resolve by walking up, e.g.
 * under `<packageRoot>/node_modules/.cache/`; `mcp-roundtrip` itself resolves
 * through the scratch project's own node_modules link, so through "exports".
 *
 * @throws Error when tsc cannot be started or prints something that is not a diagnostic
 */
export function typecheckSnippets(snippets: readonly Snippet[], options: { packageRoot: string; workDir: string; packageDir?: string }): TypecheckResult {
  const { packageRoot, workDir, packageDir = packageRoot } = options;
  const typescript = snippets.filter(isTypeScript);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(join(workDir, "node_modules"), { recursive: true });
  symlinkSync(relative(join(workDir, "node_modules"), packageDir) || ".", join(workDir, "node_modules", "mcp-roundtrip"), "dir");
  writeFileSync(join(workDir, "package.json"), `${JSON.stringify({ name: "doc-snippets", private: true, type: "module" }, null, 2)}\n`);
  writeFileSync(join(workDir, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  const byFile = new Map<string, Snippet>();
  for (const snippet of typescript) {
    const file = moduleFileOf(snippet);
    byFile.set(file.split(sep).join("/"), snippet);
    mkdirSync(dirname(join(workDir, file)), { recursive: true });
    writeFileSync(join(workDir, file), `${snippet.code}\n`);
  }
  const started = performance.now();
  const tsc = spawnSync(join(packageRoot, "node_modules", ".bin", "tsc"), ["-p", workDir, "--pretty", "false"], { cwd: workDir, encoding: "utf8" });
  const seconds = (performance.now() - started) / 1000;
  if (tsc.error) throw new Error(`could not start tsc: ${tsc.error.message}`);
  const output = `${tsc.stdout}${tsc.stderr}`;
  const diagnostics: DocDiagnostic[] = [];
  for (const line of output.split("\n")) {
    if (line.trim() === "" || /^\s/.test(line)) continue; // blank, or the continuation of a long message
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    const snippet = match === null ? undefined : byFile.get(match[1]!.split(sep).join("/"));
    if (match === null || snippet === undefined) {
      diagnostics.push({ doc: "(tsc)", line: 0, column: 0, code: "unplaced", message: line });
      continue;
    }
    diagnostics.push({ doc: snippet.doc, line: snippet.line + Number(match[2]) - 1, column: Number(match[3]), code: match[4]!, message: match[5]! });
  }
  if (tsc.status !== 0 && diagnostics.length === 0)
    diagnostics.push({ doc: "(tsc)", line: 0, column: 0, code: "exit", message: `tsc exited ${tsc.status}:\n${output}` });
  diagnostics.sort((a, b) => a.doc.localeCompare(b.doc) || a.line - b.line || a.column - b.column);
  return { diagnostics, output, seconds, modules: typescript.length };
}

/** `README.md:48:5 TS2304 Cannot find name 'confirmForm'.`: one line per diagnostic. */
export const formatDiagnostic = (d: DocDiagnostic): string => `${d.doc}:${d.line}:${d.column} ${d.code} ${d.message}`;
