// What a browser app and a worker bundle, built by the pinned esbuild from
// the built package with no externals:
// - the client with its HTTP transport (bench/bundle-size.mjs, the bench's
//   recipe): no node: import in any chunk, what a browser app loads before its
//   first call (the import, then connecting to a 2026-07-28 server) stays
//   within the budget, and the first MRTR call adds only the answer checker;
// - the worker server (examples/worker: McpServer, createHttpHandler, sealing,
//   the eval-free validator): no node: import and no code generation, and the
//   bundle itself completes a sealed MRTR round in a process that has no Node
//   builtins to offer it;
// - every entry of package.json "exports" but the Node ones, whole: no node: import.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_MODERN_REVISIONS } from "../../generated/revisions.js";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { expandedExports } from "../support/package-exports.js";

/** The budget, as bench/budgets.mjs states it (read as text: the test does not import the bench's modules). */
const budgetOf = (name: string) => Number(new RegExp(`${name} = ([\\d_]+)`).exec(readFileSync(join(root, "bench/budgets.mjs"), "utf8"))![1]!.replace(/_/g, ""));
const BUDGET = budgetOf("BUNDLE_BUDGET_BYTES");
const ANSWER_CHECK_BUDGET = budgetOf("ANSWER_CHECK_BUDGET_BYTES");
const NODE_IMPORT = /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(\s*["']node:|\bimport\s*["']node:/;
/** `new Function(…)` or a bare `Function(…)` call (not `isFunction(`, not `.Function(`). */
const CODE_GENERATION = /\bnew\s+Function\b|(?<![\w$.])Function\s*\(|\beval\s*\(/;

let work: string;
beforeAll(() => {
  ensureBuilt("runtime/entries/server.js");
  work = mkdtempSync(join(tmpdir(), "mcp-bundle-"));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Bundles `entry` (a file, or module text resolved from the package root) for a browser/worker with esbuild, no externals; returns the code. */
async function bundleFor(entry: string | { contents: string }, outfile: string, platform: "browser" | "neutral"): Promise<string> {
  await build({
    ...(typeof entry === "string" ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: root, loader: "js" as const } }),
    outfile,
    bundle: true,
    minify: true,
    format: "esm",
    platform,
    // What workerd's bundler (wrangler) asks of packages; never "node".
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    // The repository's tsconfig maps subpath imports to sources; a user's build resolves the package.
    tsconfigRaw: "{}",
    absWorkingDir: root,
    logLevel: "silent",
  });
  return readFileSync(outfile, "utf8");
}

describe("the browser client bundle", () => {
  it(`loads at most ${BUDGET.toLocaleString("en-US")} B min+gz before its first call and only the answer checker during it, reaches no node: builtin, and is a fraction of the official client's`, () => {
    const run = spawnSync(process.execPath, ["bench/bundle-size.mjs", "--json"], { cwd: root, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    type Chunk = { name: string; gzip: number };
    type Measured = { loadedGzip: number; loadedFiles: Chunk[]; upFrontGzip: number; upFrontFiles: Chunk[]; chunksWithNodeImports: number; output: string };
    const { ours, official } = JSON.parse(run.stdout) as Record<"ours" | "official", Measured>;
    expect(JSON.parse(ours.output)).toEqual({ protocolVersion: SERVED_MODERN_REVISIONS[0], text: "confirmed bundled" });
    expect(ours.chunksWithNodeImports).toBe(0);
    // Up front: the import and Client.connect. Every chunk counts, however small: a lazy module that imports a value
    // the entry chunk also holds splits that value into a chunk of its own, which the entry then loads
    // (docs/internals.md, the kits), so the sum, not the entry chunk, is what the budget holds.
    const upFront = ours.upFrontFiles.map((file) => `${file.name} ${file.gzip} B`).join(", ");
    expect(ours.upFrontGzip, upFront).toBeLessThanOrEqual(BUDGET);
    expect(ours.upFrontFiles[0]!.name).toBe("entry");
    // The first call adds the answer checker (loaded with the first callback answer) and nothing else of note.
    const duringCall = ours.loadedFiles.filter((file) => !ours.upFrontFiles.some((early) => early.name === file.name && early.gzip === file.gzip));
    expect(duringCall.map((file) => file.name)).toContain("answer-check");
    expect(ours.loadedGzip - ours.upFrontGzip).toBeLessThanOrEqual(ANSWER_CHECK_BUDGET);
    expect(official.upFrontGzip).toBeGreaterThan(3 * ours.upFrontGzip);
  }, 60_000);

  it("refuses a stdio target with what to do instead, since a browser build has no child processes", async () => {
    const code = await bundleFor({ contents: `export { Client } from "mcp-roundtrip/client";\n` }, join(work, "client.mjs"), "browser");
    expect(code).not.toMatch(NODE_IMPORT);
    expect(code).not.toContain("child_process");
    const { Client } = (await import(pathToFileURL(join(work, "client.mjs")).href)) as typeof import("../../runtime/client/index.js");
    await expect(Client.connect({ command: "node", args: ["server.js"] })).rejects.toThrow(/no child processes.*Connect to a Streamable HTTP URL/);
  });
});

describe("the worker server bundle (examples/worker)", () => {
  let code: string;
  let file: string;
  beforeAll(async () => {
    file = join(work, "worker.mjs");
    code = await bundleFor(join(root, "examples/worker/worker.ts"), file, "neutral");
  }, 60_000);

  it("imports no node: builtin and generates no code (no AJV compiler)", () => {
    expect(code).not.toMatch(NODE_IMPORT);
    expect(code).not.toMatch(CODE_GENERATION);
    expect(code).not.toContain("ajv.js.org");
  });

  it("completes a sealed MRTR round and checks its schema, in a process that offers it no node:crypto", () => {
    // (Buffer stays: Node's own fetch, which the client side uses here, needs it.)
    const source = `
      delete process.getBuiltinModule;
      const worker = (await import(${JSON.stringify(pathToFileURL(file).href)})).default;
      const { Client, StreamableHttpClientTransport } = await import("mcp-roundtrip/client");
      const env = { MCP_REQUEST_STATE_KEYS: "base64url:${Buffer.alloc(32, 7).toString("base64url")}" };
      const connect = (onElicit) => Client.connect(
        new StreamableHttpClientTransport("http://worker.test/mcp", { fetch: (input, init) => worker.fetch(new Request(input, init), env) }),
        { onElicit });
      const asked = [];
      const client = await connect((params) => (asked.push(params.message), { action: "accept", content: { seat: "window" } }));
      const trip = { code: "LIS-01", travellers: 2, legs: [[[-9.1, 38.7], [2.35, 48.85]]] };
      const booked = await client.callTool("plan_trip", trip);
      const badCode = await client.callTool("plan_trip", { ...trip, code: "lisbon" });
      const badLeg = await client.callTool("plan_trip", { ...trip, legs: [[[-9.1, 38.7], [200, 48.85]]] });
      const pending = await client.session.callTool("plan_trip", trip, { allowInputRequired: true });
      await client.close();
      const notFound = await worker.fetch(new Request("http://worker.test/"), env);
      console.log(JSON.stringify({
        asked, booked: booked.content[0].text,
        badCode: [badCode.isError, badCode.content[0].text], badLeg: [badLeg.isError, badLeg.content[0].text],
        sealed: pending.requestState, notFound: notFound.status,
      }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
      asked: string[];
      booked: string;
      badCode: [boolean, string];
      badLeg: [boolean, string];
      sealed: string;
      notFound: number;
    };
    expect(out.asked).toEqual(["Book LIS-01 for 2 traveller(s), 1 leg(s)?"]);
    expect(out.booked).toBe("Booked LIS-01 (2 points), seat: window");
    expect(out.badCode[0]).toBe(true);
    expect(out.badCode[1]).toContain("/code");
    expect(out.badLeg[0]).toBe(true);
    expect(out.badLeg[1]).toContain("/legs/0/1/0");
    // The state the client carries is sealed (v1 token format), not the plaintext the tool wrote.
    expect(out.sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(out.sealed).not.toContain("LIS-01");
    expect(out.notFound).toBe(404);
  });
});

describe("the entries for every runtime", () => {
  /** The entries that may reach a node: builtin: the Node HTTP server, the Redis extension (node-redis), the OAuth loopback listener. */
  const NODE_ONLY = ["./node", "./ext/redis", "./ext/oauth/node"];
  const pkg = expandedExports(root);
  const portable = Object.keys(pkg.exports).filter((subpath) => subpath !== "./package.json" && !NODE_ONLY.includes(subpath));

  it.each(portable)("%s, bundled whole for a browser or a worker, imports no node: builtin", async (subpath) => {
    const specifier = `${pkg.name}/${subpath.slice(2)}`;
    // The optional peers stay out: they are the user's to bundle.
    const code = await build({
      stdin: { contents: `export * from ${JSON.stringify(specifier)};\n`, resolveDir: root, loader: "js" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
      external: ["@opentelemetry/api"],
      tsconfigRaw: "{}",
      absWorkingDir: root,
      logLevel: "silent",
    });
    expect(code.outputFiles[0]!.text).not.toMatch(NODE_IMPORT);
  });
});
