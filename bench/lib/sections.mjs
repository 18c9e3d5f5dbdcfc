// Sections of bench/RESULTS.md written by the benches that run outside
// bench/run.mjs (fleet, bundle size, the official codec). Each lives between
// `<!-- name:begin … -->` and `<!-- name:end -->`; bench/run.mjs keeps them
// when it regenerates the file, and each writer replaces only its own.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** bench/RESULTS.md. */
export const RESULTS_PATH = fileURLToPath(new URL("../RESULTS.md", import.meta.url));

/**
 * Puts `body` (markdown, starting with its `## ` heading) into the section
 * `name` of RESULTS.md, in place of the previous one, or at the end.
 * @param {string} name - the marker name, e.g. `"fleet"`
 * @param {string} writer - the command that writes it, named in the marker
 * @param {string} body
 * @param {string} [path] - RESULTS.md by default
 */
export function writeResultsSection(name, writer, body, path = RESULTS_PATH) {
  if (!existsSync(path)) return;
  const section = `<!-- ${name}:begin (written by ${writer}; keep when regenerating) -->\n${body.trimEnd()}\n<!-- ${name}:end -->`;
  const marked = new RegExp(`<!-- ${name}:begin[^>]*-->[\\s\\S]*?<!-- ${name}:end -->`);
  const previous = readFileSync(path, "utf8");
  const next = marked.test(previous) ? previous.replace(marked, () => section) : `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, next);
}

/**
 * Every such section of the RESULTS.md at `path`, to append when
 * bench/run.mjs writes the file anew; empty when there is none.
 * @param {string} path
 * @returns {string}
 */
export function keptResultsSections(path) {
  if (!existsSync(path)) return "";
  const previous = readFileSync(path, "utf8");
  const blocks = previous.match(/<!-- ([a-z-]+):begin[^>]*-->[\s\S]*?<!-- \1:end -->/g) ?? [];
  return blocks.map((block) => `\n${block}\n`).join("");
}
