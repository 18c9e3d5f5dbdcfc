// The package as npm delivers it: pack, install the tarball into a scratch
// project, and use it from there, where only what "files" ships exists. The
// README's links resolve, the source maps carry their sources, a stack trace
// names files that are there, and every entry point of "exports" loads.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relativeLinksOf } from "../docs/doc-links.js";
import { extractSnippets, formatDiagnostic, typecheckSnippets } from "../docs/doc-snippets.js";
import { quickStartOf } from "../docs/quick-start.js";
import { expandedExports } from "../support/package-exports.js";
import { createScratchProject, type ScratchProject } from "../support/scratch-project.js";

/** The optional peers, at the versions the repo tests with, so their entries (mcp-roundtrip/ext/redis, …) load. */
const repoPackage = JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const peers = Object.keys(repoPackage.peerDependencies).map((name) => `${name}@${repoPackage.devDependencies[name]}`);
/** What a TypeScript user of the package has beside it: Node's types, for the README's snippets. */
const typings = [`@types/node@${repoPackage.devDependencies["@types/node"]}`];
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

let project: ScratchProject;
beforeAll(() => {
  project = createScratchProject([...peers, ...typings]);
  console.log(`tarball: packed and installed (${project.install}) in ${project.seconds.toFixed(1)}s`);
}, 180_000);
afterAll(() => project?.remove());

/** Runs an ES module script from the scratch project with `nodeArgs`; returns the finished process. */
function runInProject(file: string, source: string, nodeArgs: string[] = []) {
  writeFileSync(join(project.dir, file), source);
  return spawnSync(process.execPath, [...nodeArgs, file], { cwd: project.dir, encoding: "utf8" });
}

/** Every file under `dir` whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => path.endsWith(suffix) && statSync(path).isFile());
}

describe("the packed tarball, installed in a scratch project", () => {
  it("has every file the installed README links to, inside the package", () => {
    const readme = readFileSync(join(project.packageDir, "README.md"), "utf8");
    const links = [...new Set(relativeLinksOf(readme, "README.md").map((link) => decodeURI(link.target)))];
    expect(links.length).toBeGreaterThan(10);
    const dead = links.filter((link) => {
      const target = resolve(project.packageDir, link);
      return !target.startsWith(project.packageDir + sep) || !existsSync(target);
    });
    expect(dead, "README links that do not resolve in node_modules/mcp-roundtrip (add them to package.json files)").toEqual([]);
  });

  it("runs the installed README's quick start as written: its files saved unedited, its commands typed, its output printed", () => {
    const quickStart = quickStartOf(readFileSync(join(project.packageDir, "README.md"), "utf8"));
    // A folder of its own inside the scratch project: node_modules/mcp-roundtrip (the tarball) is found by walking up.
    const folder = join(project.dir, "quick-start");
    mkdirSync(folder);
    for (const file of quickStart.files) writeFileSync(join(folder, file.name), `${file.code}\n`);
    const transcript: string[] = [];
    for (const command of quickStart.commands) {
      // The one line the test answers itself: the package is the packed tarball, already installed above.
      if (command === "npm install mcp-roundtrip") continue;
      const [program, ...args] = command.split(/\s+/);
      expect(["npm", "node"], `the quick start asks for \`${command}\`, which this test does not know how to replay`).toContain(program);
      const run = spawnSync(program === "node" ? process.execPath : program!, args, { cwd: folder, encoding: "utf8", timeout: 30_000 });
      expect(run.status, `\`${command}\` failed:\n${run.stderr}${run.stdout}`).toBe(0);
      if (program === "node") transcript.push(run.stdout.trim());
    }
    expect(transcript.join("\n")).toBe(quickStart.output);
  }, 60_000);

  it("compiles every ts block of the installed README against the installed package", () => {
    const readme = readFileSync(join(project.packageDir, "README.md"), "utf8");
    const snippets = extractSnippets(readme, "README.md");
    const result = typecheckSnippets(snippets, { packageRoot: repoRoot, packageDir: project.packageDir, workDir: join(project.dir, "readme-snippets") });
    expect(result.modules).toBeGreaterThan(5);
    expect(result.diagnostics.map(formatDiagnostic), result.output).toEqual([]);
  });

  it("tells npm where the project lives: repository, homepage and bugs name one GitHub repository", () => {
    const installed = JSON.parse(readFileSync(join(project.packageDir, "package.json"), "utf8")) as {
      repository: { type: string; url: string };
      homepage: string;
      bugs: { url: string };
    };
    const repo = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(installed.repository.url)?.[1];
    expect(installed.repository.type).toBe("git");
    expect(repo, installed.repository.url).toBeDefined();
    expect(installed.homepage.startsWith(repo!)).toBe(true);
    expect(installed.bugs.url).toBe(`${repo}/issues`);
  });

  it("ships source maps whose sources are in the package or inlined", () => {
    const maps = [...filesUnder(join(project.packageDir, "dist"), ".js.map"), ...filesUnder(join(project.packageDir, "dist"), ".d.ts.map")];
    expect(maps.length).toBeGreaterThan(100);
    const unresolved: string[] = [];
    for (const mapFile of maps) {
      const map = JSON.parse(readFileSync(mapFile, "utf8")) as { sources: string[]; sourcesContent?: (string | null)[]; sourceRoot?: string };
      expect(map.sources.length, mapFile).toBeGreaterThan(0);
      map.sources.forEach((source, index) => {
        if (typeof map.sourcesContent?.[index] === "string") return;
        const path = resolve(dirname(mapFile), map.sourceRoot ?? "", source);
        if (!path.startsWith(project.packageDir + sep) || !existsSync(path)) unresolved.push(`${relative(project.packageDir, mapFile)} → ${source}`);
      });
    }
    expect(unresolved).toEqual([]);
  });

  it("names files that exist in the installed package in a stack trace under --enable-source-maps", () => {
    // Registering a name twice is rejected inside the server's registry: the stack runs through package files.
    const run = runInProject(
      "throws.mjs",
      `import { McpServer } from "mcp-roundtrip/server";
       const server = new McpServer({ name: "scratch", version: "1.0.0" });
       server.tool("twice", { inputSchema: { type: "object" } }, () => ({ content: [] }));
       server.tool("twice", { inputSchema: { type: "object" } }, () => ({ content: [] }));`,
      ["--enable-source-maps"],
    );
    expect(run.status, run.stdout).not.toBe(0);
    const frames = [...run.stderr.matchAll(/(\/[^\s():]+\/node_modules\/mcp-roundtrip\/[^\s():]+):(\d+):\d+/g)].map((match) => ({
      file: match[1]!,
      line: Number(match[2]),
    }));
    expect(frames.length, run.stderr).toBeGreaterThan(0);
    // Mapped back to the TypeScript the package ships, not to dist/ (which would mean the maps were not applied).
    expect(
      frames.every((frame) => frame.file.endsWith(".ts")),
      run.stderr,
    ).toBe(true);
    for (const frame of frames) {
      expect(existsSync(frame.file), frame.file).toBe(true);
      expect(readFileSync(frame.file, "utf8").split("\n").length, `${frame.file}:${frame.line}`).toBeGreaterThanOrEqual(frame.line);
    }
  });

  it("imports every entry point of exports from the scratch project", () => {
    // The "./types/*" pattern, expanded over the pinned revisions: each must load from the installed copy.
    const pkg = expandedExports(project.packageDir);
    const specifiers = Object.keys(pkg.exports)
      .filter((subpath) => subpath !== "./package.json")
      .map((subpath) => (subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
    const run = runInProject(
      "imports.mjs",
      `const loaded = {};
       for (const specifier of ${JSON.stringify(specifiers)}) loaded[specifier] = Object.keys(await import(specifier)).length;
       process.stdout.write(JSON.stringify(loaded));`,
    );
    expect(run.status, run.stderr).toBe(0);
    const loaded = JSON.parse(run.stdout) as Record<string, number>;
    expect(Object.keys(loaded).sort()).toEqual([...specifiers].sort());
    for (const specifier of specifiers) expect(loaded[specifier], specifier).toBeGreaterThan(0);
    // Resolved from the installed copy, never from the repo this test runs in.
    const resolvedFrom = runInProject("where.mjs", `process.stdout.write(import.meta.resolve("mcp-roundtrip/server"));`);
    expect(realpathSync(fileURLToPath(resolvedFrom.stdout))).toContain(`${sep}node_modules${sep}mcp-roundtrip${sep}`);
  });
});
