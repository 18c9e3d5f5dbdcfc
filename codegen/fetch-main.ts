import { defaultCacheDir, resolveAll, type Origin } from "./resolve.js";
import { allPinnedFiles, readSources } from "./sources.js";

const USAGE = `usage: npm run schema:fetch -- [--revision REV]…
  Puts every file pinned in schema/sources.json (each revision's schema.json and example messages)
  into the cache, checking each sha256: from MCP_SCHEMA_DIR when set, else by download from the
  pinned source. Files already cached are not fetched again.
  --revision REV        only this revision (repeatable); default: every revision
  MCP_SCHEMA_DIR        a folder with <rev>/schema.json and <rev>/examples/ to copy from instead of downloading
  MCP_SCHEMA_CACHE_DIR  the cache (default: mcp-roundtrip/schema in the user cache directory)`;

/**
 * `npm run schema:fetch`: fills the cache on purpose (before going offline,
 * or once per machine from a local copy), so codegen and the tests need
 * neither MCP_SCHEMA_DIR nor the network afterwards.
 *
 * @returns the process exit code: 0 when every file is in place, 1 when one is missing or wrong, 2 for bad usage.
 */
export async function fetchMain(root: string, argv: string[]): Promise<number> {
  const revisions: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--revision" && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) revisions.push(argv[++i]!);
    else if (arg.startsWith("--revision=")) revisions.push(arg.slice("--revision=".length));
    else {
      console.error(arg === "--help" || arg === "-h" ? USAGE : `unknown argument ${arg}\n${USAGE}`);
      return arg === "--help" || arg === "-h" ? 0 : 2;
    }
  }
  const cacheDir = defaultCacheDir();
  try {
    const sources = readSources(root);
    const files = allPinnedFiles(root, sources, revisions.length > 0 ? revisions : undefined);
    const resolved = await resolveAll(files, { cacheDir });
    const counts: Record<Origin, number> = { "schema-dir": 0, cache: 0, source: 0 };
    for (const file of resolved) counts[file.origin]++;
    const names = [...new Set(files.map((file) => file.name.split("/")[0]))].join(", ");
    console.log(
      `schema:fetch: ${files.length} files of ${names} checked and cached in ${cacheDir} ` +
        `(${counts.cache} already there, ${counts["schema-dir"]} copied from MCP_SCHEMA_DIR, ${counts.source} downloaded)`,
    );
    return 0;
  } catch (error) {
    console.error(`schema:fetch: ${(error as Error).message}`);
    return 1;
  }
}
