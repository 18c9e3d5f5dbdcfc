// package.json "exports" as a reader of the package sees it: the pattern
// subpath "./types/*" expanded to one subpath per revision schema/sources.json
// pins, so the export tests cover every revision without a list of their own
// (and fail, naming the file, when the build lacks one).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PINNED_REVISIONS } from "./schema.js";

/** An entry's files by condition (`types`, `node`, `default`). */
export type ExportTarget = Record<string, string>;

/** The parts of package.json the export tests read. */
export interface PackageJson {
  name: string;
  exports: Record<string, ExportTarget | string>;
}

/** Reads `dir`/package.json and expands every pattern subpath of its "exports" over the pinned revisions. */
export function expandedExports(dir: string): PackageJson {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
  const exports: PackageJson["exports"] = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (!subpath.includes("*") || typeof target === "string") {
      exports[subpath] = target;
      continue;
    }
    for (const revision of PINNED_REVISIONS) {
      exports[subpath.replace("*", revision)] = Object.fromEntries(Object.entries(target).map(([condition, file]) => [condition, file.replace("*", revision)]));
    }
  }
  return { ...pkg, exports };
}
