// The README's quick start, read as a newcomer reads it: the files it says to
// save, the shell commands it says to type, the output it says they print.
// The tarball test (test/package/tarball.test.ts) replays exactly this, so the
// quick start cannot drift from what the published package does.
import { extractSnippets } from "./doc-snippets.js";

/** What the quick start asks of its reader. */
export interface QuickStart {
  /** Each file to save: the name its first line gives (`// server.mjs: …`) and its text, unedited. */
  files: { name: string; code: string }[];
  /** Every shell line to type, in order (comments and blank lines dropped). */
  commands: string[];
  /** The output the README shows (its ```text block), trimmed. */
  output: string;
}

/** The heading the section starts with. */
const HEADING = "## Quick start";

/**
 * Reads the quick start section of `readme`.
 *
 * @throws Error when the section is missing, names no file, no command or no output
 */
export function quickStartOf(readme: string): QuickStart {
  const start = readme.indexOf(`\n${HEADING}\n`);
  if (start === -1) throw new Error(`README.md has no "${HEADING}" section`);
  const end = readme.indexOf("\n## ", start + HEADING.length + 2);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks = extractSnippets(section, "README.md");
  const files = blocks
    .filter((block) => ["js", "mjs", "ts"].includes(block.lang))
    .map((block) => ({ name: /^\/\/ ([\w.-]+\.(?:mjs|js|ts))\b/.exec(block.code)?.[1], code: block.code }));
  const unnamed = files.filter((file) => file.name === undefined);
  if (unnamed.length > 0) throw new Error("every code block of the quick start starts with `// <file name>: …`, saying where to save it");
  const commands = blocks
    .filter((block) => block.lang === "sh")
    .flatMap((block) => block.code.split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const output = blocks.find((block) => block.lang === "text")?.code.trim();
  if (files.length === 0 || commands.length === 0 || output === undefined) {
    throw new Error(
      `the quick start must name files to save (${files.length}), commands to run (${commands.length}) and their output (${output === undefined ? "none" : "found"})`,
    );
  }
  return { files: files as QuickStart["files"], commands, output };
}
