import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultCacheDir, describeReadError, putInCache, readLocation, sha256Hex } from "./resolve.js";
import { isUrl, recordedSource, type PinnedExamples } from "./sources.js";

/** Example messages found and hashed: their pin, and the names asked for that were not there. */
export interface ExamplesFound {
  examples: PinnedExamples;
  /** Names in `known` that are not there any more: a URL answered 404, or a folder does not hold them. */
  missing: string[];
}

/** `<Definition>/<name>.json` files, two levels under `dir`, sorted. */
function listFolder(dir: string): string[] {
  const names: string[] = [];
  for (const definition of readdirSync(dir).sort()) {
    if (!statSync(join(dir, definition)).isDirectory()) continue;
    for (const file of readdirSync(join(dir, definition)).sort()) if (file.endsWith(".json")) names.push(`${definition}/${file}`);
  }
  return names;
}

/**
 * Computes the pin of a revision's example messages, from a folder (every
 * `<Definition>/<name>.json` in it) or a base URL (which cannot be listed, so
 * each name in `known`, the examples pinned for another revision, is fetched
 * and those answering 404 are reported missing). Each file goes into the
 * cache under its sha256, so the tests find it without the network.
 *
 * @throws Error naming the location when it cannot be read, lists nothing, or a download fails other than 404.
 */
export async function pinExamples(root: string, location: string, known: string[]): Promise<ExamplesFound> {
  const files: Record<string, string> = {};
  const missing: string[] = [];
  const cacheDir = defaultCacheDir();
  const keep = (name: string, bytes: Buffer) => {
    const sha256 = sha256Hex(bytes);
    files[name] = sha256;
    putInCache(cacheDir, sha256, bytes);
  };
  let source: string;
  if (isUrl(location)) {
    source = location.endsWith("/") ? location : `${location}/`;
    if (known.length === 0) {
      throw new Error(`--examples ${location}: a URL cannot be listed and no revision pins examples to take the names from; point --examples at a folder`);
    }
    let next = 0;
    const worker = async () => {
      while (next < known.length) {
        const name = known[next++]!;
        try {
          keep(name, await readLocation(new URL(name, source).href));
        } catch (error) {
          const reason = describeReadError(error);
          if (reason.startsWith("HTTP 404")) missing.push(name);
          else throw new Error(`--examples: downloading ${new URL(name, source).href} failed (${reason}); try again, or point --examples at a folder`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  } else {
    const dir = resolve(location);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new Error(`--examples ${location}: no such folder; point it at the revision's examples/ folder (<Definition>/<name>.json files)`);
    }
    for (const name of listFolder(dir)) keep(name, readFileSync(join(dir, ...name.split("/"))));
    missing.push(...known.filter((name) => !Object.hasOwn(files, name)));
    source = `${recordedSource(root, dir)}/`;
  }
  if (Object.keys(files).length === 0) {
    throw new Error(`--examples ${location}: found no <Definition>/<name>.json file there; point it at the revision's examples/ folder`);
  }
  const sorted = Object.fromEntries(
    Object.keys(files)
      .sort()
      .map((name) => [name, files[name]!]),
  );
  return { examples: { source, files: sorted }, missing: missing.sort() };
}
