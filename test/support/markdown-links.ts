// The links of a markdown file that point into the repository (or, installed,
// into the package): what must ship for the page to work in node_modules.

/**
 * The relative targets of the links in `markdown`: inline `[text](target)` and
 * reference `[label]: target`, without their `#fragment` and outside code
 * fences. Web, mail and same-page links are left out.
 */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, "");
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!),
  ];
  const relative = targets.filter((target) => !/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target));
  return [...new Set(relative.map((target) => decodeURI(target.split("#")[0]!)))];
}
