// Relative links of a markdown file, and whether they resolve in a list of
// files (the packed tarball's): what a reader of README.md or docs/ inside
// node_modules/mcp-roundtrip can actually open.
import { posix } from "node:path";
import { extractSnippets } from "./doc-snippets.js";

/** One relative link: where it points, resolved against the linking file, and its `#fragment` if any. */
export interface DocLink {
  /** The markdown file holding the link (package-relative, `/`-separated). */
  from: string;
  /** The link as written. */
  href: string;
  /** The target, package-relative; the linking file itself for a bare `#fragment`. */
  target: string;
  fragment: string | undefined;
}

/** Text with fenced blocks blanked, so a heading or a link inside code is not taken for one. */
function withoutCodeBlocks(markdown: string, doc: string): string {
  let prose = markdown;
  for (const snippet of extractSnippets(markdown, doc)) prose = prose.replace(snippet.code, "");
  return prose;
}

/** Text with fenced blocks and inline code spans blanked. */
const proseOf = (markdown: string, doc: string): string => withoutCodeBlocks(markdown, doc).replace(/`[^`\n]*`/g, "");

/**
 * Every relative link (`[text](target)` and `![alt](target)`) of `markdown`,
 * which lives at `doc` in the package. Absolute URLs (`https:`, `mailto:`…)
 * are left out: they do not depend on what the tarball holds.
 */
export function relativeLinksOf(markdown: string, doc: string): DocLink[] {
  const links: DocLink[] = [];
  for (const match of proseOf(markdown, doc).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const href = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    const [path, fragment] = href.split("#", 2) as [string, string | undefined];
    const target = path === "" ? doc : posix.normalize(posix.join(posix.dirname(doc), path)).replace(/\/$/, "");
    links.push({ from: doc, href, target, fragment });
  }
  return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The anchors of every heading of `markdown` (outside code blocks). */
export function anchorsOf(markdown: string, doc: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of withoutCodeBlocks(markdown, doc).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) anchors.add(anchorOf(match[1]!));
  return anchors;
}

/**
 * The links of `links` that do not resolve in `files` (package-relative
 * paths): a file link needs that file, a directory link a file under it, a
 * fragment a heading of that markdown (`markdownOf` gives the target's text).
 */
export function brokenLinks(links: readonly DocLink[], files: readonly string[], markdownOf: (path: string) => string): string[] {
  const packed = new Set(files);
  const broken: string[] = [];
  for (const link of links) {
    const isFile = packed.has(link.target);
    const isDirectory = !isFile && files.some((file) => file.startsWith(`${link.target}/`));
    if (!isFile && !isDirectory) {
      broken.push(`${link.from}: ${link.href} (${link.target} is not in the package)`);
      continue;
    }
    if (link.fragment !== undefined && isFile && link.target.endsWith(".md") && !anchorsOf(markdownOf(link.target), link.target).has(link.fragment)) {
      broken.push(`${link.from}: ${link.href} (${link.target} has no heading #${link.fragment})`);
    }
  }
  return broken;
}
