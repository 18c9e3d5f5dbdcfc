// `npm run version-packages`: the release step. `changeset version` consumes
// the pending changesets into CHANGELOG.md and bumps package.json; then the
// version the client reports as its default clientInfo is set to match, since
// a browser or worker build cannot read package.json at run time.
import { readFileSync, writeFileSync } from "node:fs";
import { bin, run } from "./run.mjs";

run("changeset version", bin("changeset"), ["version"]);
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const file = "runtime/client/meta.ts";
const source = readFileSync(file, "utf8");
const pattern = /(DEFAULT_CLIENT_INFO: Implementation = Object\.freeze\(\{ name: "mcp-roundtrip", version: ")[^"]*(" \}\))/;
if (!pattern.test(source)) {
  console.error(`✗ version-packages: ${file} no longer declares DEFAULT_CLIENT_INFO as this script expects; set its version to ${version} by hand`);
  process.exit(1);
}
writeFileSync(file, source.replace(pattern, `$1${version}$2`));
console.error(`✓ ${file}: DEFAULT_CLIENT_INFO.version = ${version}`);
