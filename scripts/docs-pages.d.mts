// Types of scripts/docs-pages.mjs, for the test that checks it (test/docs/guide-order.test.ts).
/** The guide's pages in reading order, read from the text of docs/README.md: file names under docs/. */
export function guideOrderOf(readme: string): string[];
/** The markdown pages of `dir`/docs, the guide's first: absolute paths, none when there is no docs/. */
export function docsPagesOf(dir: string): string[];
