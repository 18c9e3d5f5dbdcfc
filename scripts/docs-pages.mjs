// The pages of docs/ in the order the API reference site lists them: the
// guide first, in the reading order docs/README.md gives it, then every
// other page by name. docs/README.md is the one place that order is written;
// scripts/docs.mjs reads it from here, and test/docs/guide-order.test.ts
// checks what it reads.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The heading after which docs/README.md stops listing the guide. */
const GUIDE_ENDS_AT = "\n## Reference";

/**
 * The guide's pages in reading order: docs/README.md first, then each page
 * its guide section links to (a link's anchor is dropped), each once.
 *
 * @param {string} readme - the text of docs/README.md
 * @returns {string[]} file names under docs/
 */
export function guideOrderOf(readme) {
  const end = readme.indexOf(GUIDE_ENDS_AT);
  const guide = end === -1 ? readme : readme.slice(0, end);
  const pages = [...guide.matchAll(/\]\(([\w.-]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1]);
  return [...new Set(["README.md", ...pages])];
}

/**
 * The markdown pages of `dir`/docs as typedoc project documents: the guide's
 * first, then the rest by name; none when there is no docs/.
 *
 * @param {string} dir - the package root
 * @returns {string[]} absolute paths
 */
export function docsPagesOf(dir) {
  const folder = join(dir, "docs");
  if (!existsSync(folder)) return [];
  const pages = readdirSync(folder).filter((name) => name.endsWith(".md"));
  const guide = pages.includes("README.md") ? guideOrderOf(readFileSync(join(folder, "README.md"), "utf8")).filter((name) => pages.includes(name)) : [];
  const ordered = [...guide, ...pages.filter((name) => !guide.includes(name)).sort()];
  return ordered.map((name) => join(folder, name));
}
