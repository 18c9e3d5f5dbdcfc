/** Parsed command line of `npm run codegen`. */
export interface Options {
  check: boolean;
  acceptNewSchema: boolean;
  schema?: string;
  revisions?: string[];
  /** Regenerate even when the stamp of an identical earlier run holds. */
  noStamp?: boolean;
  /** `--add-revision REV`: pin, overlay, generate and register a new revision. */
  addRevision?: string;
  /** `--examples DIR|URL`: the example messages to pin (with `--add-revision` or `--accept-new-schema`). */
  examples?: string;
  /** `--no-serve` (with `--add-revision`): the runtime gets no profile for the revision. */
  serve?: false;
}

/** What `npm run codegen -- --help` prints, and every usage error ends with. */
const USAGE = `usage: npm run codegen -- [--check] [--revision REV]… [--schema PATH|URL] [--accept-new-schema [--examples DIR|URL]]
       npm run codegen -- --add-revision REV --schema PATH|URL [--examples DIR|URL] [--no-serve]
  --check               generate in memory; exit 1 naming every file that differs from generated/
  --accept-new-schema   adopt the schema read (from --schema, or MCP_SCHEMA_DIR) even if its sha256 differs from
                        schema/sources.json: records where it came from and its sha256 there, then generates
  --add-revision REV    pin a new revision (docs/codegen.md, "Adding a revision"): writes its schema/sources.json
                        entry (the sha256 of the schema and of every example, computed), starts schema/overlay/REV.json
                        from the newest revision's overlay and reports which corrections still apply, generates
                        generated/REV/ and the revision index every other part of the repository reads
  --examples DIR|URL    the revision's example messages, <Definition>/<name>.json under DIR or URL; with
                        --add-revision or --accept-new-schema their sha256 are pinned (a URL cannot be listed: the
                        names of the newest pinned examples are fetched from it)
  --no-serve            with --add-revision: the runtime gets no profile for REV, so the server refuses it with -32022
                        until "serve": false is dropped from its schema/sources.json entry
  --no-stamp            with --check, regenerate even if an identical earlier run was recorded
  --revision REV        only this revision (repeatable); default: every revision in schema/sources.json
  --schema PATH|URL     read the schema from here (needs exactly one revision; default: the default revision)
  MCP_SCHEMA_DIR        a folder with <rev>/schema.json, tried first; then the cache, then the pinned source
  MCP_SCHEMA_CACHE_DIR  the cache of checked copies (default: mcp-roundtrip/schema in the user cache directory)`;

/**
 * Parses argv.
 *
 * @throws TypeError for an unknown flag, a flag missing its value, or flags that do not go together.
 */
export function parseArgs(argv: string[]): Options {
  const options: Options = { check: false, acceptNewSchema: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith("--")) throw new TypeError(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    const inline = /^--(schema|examples|add-revision|revision)=(.*)$/.exec(arg);
    const [flag, given] = inline ? [`--${inline[1]}`, () => inline[2]!] : [arg, value];
    if (flag === "--check") options.check = true;
    else if (flag === "--accept-new-schema") options.acceptNewSchema = true;
    else if (flag === "--no-stamp") options.noStamp = true;
    else if (flag === "--no-serve") options.serve = false;
    else if (flag === "--schema") options.schema = given();
    else if (flag === "--examples") options.examples = given();
    else if (flag === "--add-revision") options.addRevision = given();
    else if (flag === "--revision") (options.revisions ??= []).push(given());
    else if (flag === "--help" || flag === "-h") throw new TypeError(USAGE);
    else throw new TypeError(`unknown argument ${arg}\n${USAGE}`);
  }
  const conflict = (why: string) => new TypeError(`${why}\n${USAGE}`);
  if (options.addRevision !== undefined) {
    const clash = [options.check && "--check", options.acceptNewSchema && "--accept-new-schema", options.revisions && "--revision"].filter(Boolean);
    if (clash.length > 0) throw conflict(`--add-revision goes alone with --schema, --examples and --no-serve, not with ${clash.join(", ")}`);
    if (options.schema === undefined) {
      throw conflict(
        `--add-revision ${options.addRevision} needs --schema PATH|URL: the new revision's schema.json (prefer the published URL at the release commit)`,
      );
    }
  } else {
    if (options.serve === false) throw conflict('--no-serve goes with --add-revision (for a pinned revision, set "serve": false in schema/sources.json)');
    if (options.examples !== undefined && (!options.acceptNewSchema || options.check)) {
      throw conflict("--examples pins example messages: use it with --add-revision or --accept-new-schema (not with --check)");
    }
  }
  return options;
}
