// `npm run version-packages`: the release step. `changeset version` consumes
// the pending changesets into CHANGELOG.md and bumps package.json; then the
// version the client reports as its default clientInfo is set to match, since
// a browser or worker build cannot read package.json at run time.
import { readFileSync, writeFileSync } from "node:fs";
import { bin, run } from "./run.mjs";

run("changeset version", bin("changeset"), ["version"]);
const { version } = JSON.parse(readFileSync("package.json", "utf8"));
// Both places the client names itself: meta.ts's DEFAULT_CLIENT_INFO and the 2025 handshake's copy of it.
const pattern = () => /(\{ name: "mcp-roundtrip", version: ")[^"]*(" \})/g;
for (const file of ["runtime/client/meta.ts", "runtime/client/handshake.ts"]) {
  const source = readFileSync(file, "utf8");
  if (!pattern().test(source)) {
    console.error(`✗ version-packages: ${file} no longer names { name: "mcp-roundtrip", version } as this script expects; set it to ${version} by hand`);
    process.exit(1);
  }
  writeFileSync(file, source.replace(pattern(), `$1${version}$2`));
  console.error(`✓ ${file}: the client's own version = ${version}`);
}
