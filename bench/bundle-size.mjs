// The browser client bundle, ours beside the official client, by one recipe:
// esbuild (pinned), --bundle --minify --format=esm --platform=browser
// --splitting, no externals, each chunk measured as gzip level 9.
//   npm run build && node bench/bundle-size.mjs [--json] [--out FILE]
//
// The figure that meets the budget is what a browser app loads up front:
// every chunk imported before its first call (the import of the entry, then
// Client.connect to a 2026-07-28 server over Streamable HTTP), recorded by a
// module-resolve hook in a child process. The chunks the first MRTR call then
// loads (the answer checker) are reported beside it, and the chunks only the
// 2025 fallback or stdio would load stay lazy and are reported apart. The same run is done for the official
// client against its own export; it loads one chunk, the whole of it.
// Writes bench/RESULTS-bundle-size.md and its section of bench/RESULTS.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { BUNDLE_BUDGET_BYTES } from "./budgets.mjs";
import { writeResultsSection } from "./lib/sections.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));

/** The recipe, shared by every contender. */
export const RECIPE = Object.freeze({
  bundle: true,
  minify: true,
  format: "esm",
  platform: "browser",
  splitting: true,
  // The package's own tsconfig maps its subpath imports to sources; a user's build has none of it.
  tsconfigRaw: "{}",
  logLevel: "silent",
});

/** An import of a Node builtin in bundled code: static, dynamic or require. */
export const NODE_IMPORT = /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(\s*["']node:|\bimport\s*["']node:/;

/** gzip -9 size of bytes. */
export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

/**
 * Bundles `source` (an entry module's text, resolved from the package root) into `outdir`.
 * @returns {Promise<{ entry: string, chunks: { file: string, bytes: number, gzip: number }[] }>}
 */
export async function bundle(source, outdir) {
  const entryFile = join(root, `.bundle-entry-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(entryFile, source);
  try {
    const result = await build({ ...RECIPE, entryPoints: { entry: entryFile }, outdir, metafile: true, absWorkingDir: root });
    const chunks = Object.keys(result.metafile.outputs)
      .filter((file) => file.endsWith(".js"))
      .map((file) => {
        const bytes = readFileSync(join(root, file));
        return { file: join(root, file), bytes: bytes.length, gzip: gzipSize(bytes), nodeImport: NODE_IMPORT.test(bytes.toString("utf8")) };
      });
    return { entry: join(outdir, "entry.js"), chunks };
  } finally {
    rmSync(entryFile, { force: true });
  }
}

/** Our client with its HTTP transport, as a browser app imports it. */
export const OURS = `export { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
`;
/** The official client with its HTTP transport. */
export const OFFICIAL = `export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
`;

/** The line a flow writes into the resolve log (by calling `firstCall()`) just before its first call: what was resolved above it was loaded up front. */
const FIRST_CALL_MARK = "-- first call --";

/**
 * A child process that imports `entry` (a bundle) and runs `body` with it as
 * `bundle`, logging every module it resolves; returns the files resolved, and
 * those resolved before the body called `firstCall()` (all of them if it never did).
 */
function loadedBy(entry, body, log) {
  const hook = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
  return result;
}`;
  const script = `
    import { register } from "node:module";
    import { appendFileSync, writeFileSync } from "node:fs";
    writeFileSync(${JSON.stringify(log)}, "");
    const firstCall = () => appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(FIRST_CALL_MARK)} + "\\n");
    register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
    const bundle = await import(${JSON.stringify(pathToFileURL(entry).href)});
    ${body}`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`the bundle did not run (exit ${run.status}):\n${run.stderr}`);
  const lines = readFileSync(log, "utf8").trim().split("\n");
  const mark = lines.indexOf(FIRST_CALL_MARK);
  const filesOf = (urls) => new Set(urls.filter((url) => url.startsWith("file:")).map((url) => fileURLToPath(url)));
  return { stdout: run.stdout, files: filesOf(lines), upFront: filesOf(mark === -1 ? lines : lines.slice(0, mark)) };
}

/** Our bundled client against a 2026-07-28 server (the built package's, in the same child), one MRTR call through the bundle's own HTTP transport. */
const OUR_FLOW = `
  const { McpServer, inputRequired } = await import("mcp-roundtrip/server");
  const { createHttpHandler } = await import("mcp-roundtrip/server");
  const server = new McpServer({ name: "bundle-probe", version: "1.0.0" });
  server.tool("confirm", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args, ctx) =>
    ctx.inputResponses?.ok?.action === "accept"
      ? { content: [{ type: "text", text: "confirmed " + args.text }] }
      : inputRequired({ inputRequests: { ok: { method: "elicitation/create", params: { mode: "form", message: "ok?", requestedSchema: { type: "object", properties: {} } } } } }));
  const handler = createHttpHandler(server);
  const transport = new bundle.StreamableHttpClientTransport("http://127.0.0.1/mcp", { fetch: (input, init) => handler(new Request(input, init)) });
  const client = await bundle.Client.connect(transport, { onElicit: async () => ({ action: "accept", content: {} }) });
  firstCall();
  const result = await client.callTool("confirm", { text: "bundled" });
  await client.close();
  console.log(JSON.stringify({ protocolVersion: client.protocolVersion, text: result.content[0].text }));
`;

/**
 * `entry`, `answer-check`, `chunk` (a shared chunk): a chunk's file name without esbuild's hash (or hashes:
 * the package's own entries are bundled, so a lazy chunk of ours already carries one).
 */
function chunkName(file, entry) {
  if (file === entry) return "entry";
  return file
    .split(/[\\/]/)
    .pop()
    .replace(/(?:-[A-Z0-9]{8})+\.js$/, "");
}

/** Measures one contender: every chunk, and the chunks the flow loaded. */
async function measure(name, source, flow, work) {
  const outdir = join(work, name);
  const { entry, chunks } = await bundle(source, outdir);
  const log = join(work, `${name}.resolved.txt`);
  const { stdout, files, upFront } = loadedBy(entry, flow, log);
  // The entry first, whatever order esbuild listed the outputs in.
  const loaded = chunks.filter((chunk) => chunk.file === entry).concat(chunks.filter((chunk) => files.has(chunk.file) && chunk.file !== entry));
  const loadedUpFront = loaded.filter((chunk) => upFront.has(chunk.file) || chunk.file === entry);
  const sum = (list, key) => list.reduce((total, chunk) => total + chunk[key], 0);
  return {
    name,
    chunks: chunks.length,
    loadedChunks: loaded.length,
    // Which chunks the flow loaded (the entry first), by file name without esbuild's hash, and their size.
    loadedFiles: loaded.map((chunk) => ({ name: chunkName(chunk.file, entry), gzip: chunk.gzip })),
    loadedGzip: sum(loaded, "gzip"),
    // What the app loads before its first call (the import, then connect), by the same names: the figure the budget holds.
    upFrontFiles: loadedUpFront.map((chunk) => ({ name: chunkName(chunk.file, entry), gzip: chunk.gzip })),
    upFrontGzip: sum(loadedUpFront, "gzip"),
    loadedMin: sum(loaded, "bytes"),
    totalGzip: sum(chunks, "gzip"),
    totalMin: sum(chunks, "bytes"),
    chunksWithNodeImports: chunks.filter((chunk) => chunk.nodeImport).length,
    output: stdout.trim().split("\n").at(-1),
  };
}

/**
 * Bundles and runs both clients.
 * @returns {Promise<{ ours: object, official: object, budget: number, esbuild: string }>}
 */
export async function measureBundles() {
  const work = mkdtempSync(join(tmpdir(), "mcp-bundle-size-"));
  try {
    const ours = await measure("ours", OURS, OUR_FLOW, work);
    // Their client is measured as loaded at startup: running it would need a server of theirs; it splits into one lazy chunk (web API shims), reported in the total.
    const official = await measure("official", OFFICIAL, "", work);
    const { version } = JSON.parse(readFileSync(join(root, "node_modules/esbuild/package.json"), "utf8"));
    return { ours, official, budget: BUNDLE_BUDGET_BYTES, esbuild: version };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function report({ ours, official, budget, esbuild }, started) {
  const kb = (bytes) => `${bytes.toLocaleString("en-US")} B`;
  const verdict = ours.upFrontGzip <= budget ? "meets" : "MISSES";
  return [
    "# Browser client bundle: mcp-roundtrip beside the official client",
    "",
    `Generated by \`node bench/bundle-size.mjs\` on ${started.toISOString()} (esbuild ${esbuild}); rerun it rather than editing this file.`,
    "",
    "Recipe, both clients: `esbuild --bundle --minify --format=esm --platform=browser --splitting`, no externals, each chunk gzip -9.",
    "Ours: `Client` and `StreamableHttpClientTransport` from `mcp-roundtrip/client`;",
    "theirs: `Client` and `StreamableHTTPClientTransport` from `@modelcontextprotocol/client`.",
    '"Up front" is every chunk the bundle imports before its first call (the import, then connecting to a 2026-07-28 server over Streamable HTTP);',
    '"loaded" adds what finishing an MRTR call imports (recorded, not estimated); the rest are lazy chunks for SSE answers, the 2025 fallback (its validators) and stdio.',
    "",
    "| client | up front, min+gz | loaded, min+gz | loaded, min | chunks loaded / emitted | all chunks, min+gz |",
    "|---|---:|---:|---:|---:|---:|",
    `| mcp-roundtrip | ${kb(ours.upFrontGzip)} | ${kb(ours.loadedGzip)} | ${kb(ours.loadedMin)} | ${ours.loadedChunks} / ${ours.chunks} | ${kb(ours.totalGzip)} |`,
    `| @modelcontextprotocol/client | ${kb(official.upFrontGzip)} | ${kb(official.loadedGzip)} | ${kb(official.loadedMin)} | ${official.loadedChunks} / ${official.chunks} | ${kb(official.totalGzip)} |`,
    "",
    `Budget (bench/budgets.mjs): what ours loads up front ≤ ${kb(budget)} min+gz: ${verdict} (${kb(ours.upFrontGzip)}: ${ours.upFrontFiles.map((file) => `${file.name} ${file.gzip}`).join(", ")}; the first call adds ${kb(ours.loadedGzip - ours.upFrontGzip)}, the answer checker); theirs loads ${(official.upFrontGzip / ours.upFrontGzip).toFixed(1)}× that up front.`,
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { json: { type: "boolean", default: false }, out: { type: "string", default: fileURLToPath(new URL("./RESULTS-bundle-size.md", import.meta.url)) } },
  });
  if (!existsSync(join(root, "dist/runtime/entries/client.js"))) {
    console.error("bench/bundle-size.mjs bundles the built package: run `npm run build` first.");
    process.exit(1);
  }
  const started = new Date();
  const result = await measureBundles();
  if (values.json) {
    console.log(JSON.stringify(result));
  } else {
    const markdown = report(result, started);
    mkdirSync(join(values.out, ".."), { recursive: true });
    writeFileSync(values.out, markdown);
    if (values.out === fileURLToPath(new URL("./RESULTS-bundle-size.md", import.meta.url))) {
      writeResultsSection("bundle-size", "bench/bundle-size.mjs", markdown.replace(/^# /, "## "));
    }
    console.log(markdown);
  }
}
