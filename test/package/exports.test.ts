// The published shape: every subpath of package.json "exports" loads from
// dist/ under the package's own name, with exactly its public names, and the
// tarball holds the build, the docs and the example files they link to, and
// nothing of the tests, benchmarks or the spec's files.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { readSources } from "../../codegen/sources.js";
import { brokenLinks, relativeLinksOf } from "../docs/doc-links.js";
import { type ExportTarget, expandedExports, type PackageJson } from "../support/package-exports.js";
import { PINNED_REVISIONS } from "../support/schema.js";

/** package.json "exports", its "./types/*" pattern expanded to one entry per generated revision in dist/. */
const pkg = expandedExports(root);
const declared = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
/** What every generated revision's entry exports at run time. */
const TYPES_ENTRY = ["ErrorCode", "INPUT_KINDS", "INPUT_REQUIRED_METHODS", "METHOD_TABLE", "NOTIFICATION_TABLE", "PROTOCOL_VERSION"];

/** The JSON-RPC basics both sides export (runtime/entries/jsonrpc.ts). */
const JSON_RPC = ["JsonRpcErrorCode", "McpError", "isJsonRpcErrorResponse", "isJsonRpcNotification", "isJsonRpcRequest", "isJsonRpcResponse", "isValidRequestId"];

/** The runtime (value) names each entry must export under the node condition, no more and no fewer. */
const EXPECTED: Record<string, string[]> = {
  "./types": TYPES_ENTRY,
  // One per revision schema/sources.json pins, through the one "./types/*" pattern.
  ...Object.fromEntries(PINNED_REVISIONS.map((revision) => [`./types/${revision}`, TYPES_ENTRY])),
  "./validate": ["validate", "validateNotification", "validateParams", "validateRequest", "validateResult"],
  "./server": [
    ...JSON_RPC,
    "InvalidRequestState",
    "McpServer",
    "MemoryReplayStore",
    "MemoryTaskStore",
    "MetaKey",
    "Needs",
    "RequestStateSecurity",
    "RequestStateUnavailable",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "Server",
    "TASKS_EXTENSION",
    "TaskStoreFull",
    "UriTemplate",
    "ask",
    "createLogger",
    "elicit",
    "elicitUrl",
    "escapeLogText",
    "evaluateNeeds",
    "inputRequired",
    "isInputRequired",
    "isTerminalStatus",
    "listRoots",
    "needs",
    "principalOf",
    "requestStateBoundary",
    "requireScopes",
    "runAsTask",
    "runWithDependencies",
    "sample",
    "DEFAULT_MAX_LISTENERS",
    "InProcessBroadcaster",
    "SUBSCRIPTION_ID_META",
    "SUBSCRIPTION_TYPES",
    "TOO_MANY_LISTENERS",
    "isSubscriptionEvent",
    "jsonSchema",
    // The web-standard HTTP handler.
    "DEFAULT_MAX_BODY_BYTES",
    "createHttpHandler",
    "decodeHeaderValue",
    "encodeHeaderValue",
    "paramHeaderMismatch",
    "paramHeadersOf",
    "statusForError",
    "InMemoryClientTransport",
  ],
  "./client": [
    ...JSON_RPC.filter((name) => name !== "McpError"),
    "Client",
    "ClientClosed",
    "ClientSession",
    "ConnectionLost",
    "InputRequestFailed",
    "InputRequiredNotAllowed",
    "InputResponseInvalid",
    "InputRequiredRoundsExceeded",
    "InvalidServerResult",
    "LEGACY_PROTOCOL_VERSIONS",
    "MODERN_PROTOCOL_VERSION",
    "McpError",
    "PendingRequest",
    "PendingServerMismatch",
    "PendingStateRefused",
    "ProtocolVersionUnsupported",
    "RequestTimeout",
    "SessionExpired",
    "Subscription",
    "TASKS_EXTENSION",
    "TaskCancelled",
    "ToolOutputInvalid",
    "isInputRequired",
    // The transports: Streamable HTTP over fetch, and stdio.
    "HttpTransportError",
    "StreamableHttpClientTransport",
    "DEFAULT_INHERITED_ENV",
    "DEFAULT_MAX_LINE_BYTES",
    "StdioClientTransport",
    "childEnvironment",
  ],
  // Everything that needs Node: the node:http server, the stdio server and the stdio client.
  "./node": ["serveHttp", "toNodeHandler", "serveStdio", "StdioClientTransport", "DEFAULT_MAX_LINE_BYTES"],
  "./state": [
    "DEFAULT_KEYS_ENV",
    "INVALID_REQUEST_STATE_MESSAGE",
    "INVALID_REQUEST_STATE_REASON",
    "InvalidRequestState",
    "MIN_SECRET_BYTES",
    "MemoryReplayStore",
    "RequestStateSecurity",
    "RequestStateUnavailable",
    "decodeKeyEntry",
    "invalidRequestStateError",
    "keyIdOf",
    "principalOf",
  ],
  "./ext/official": [
    "InvalidRequestState",
    "MemoryReplayStore",
    "RequestStateSecurity",
    "createSealedRequestStateCodec",
    "officialEventBus",
    "principalOfOfficialAuthInfo",
  ],
  "./ext/redis": ["RedisBroadcaster", "RedisReplayStore", "connectRedisBroadcaster", "connectRedisReplayStore"],
  "./ext/otel": ["SpanAttribute", "telemetry"],
  "./ext/jwt": ["JwtRejected", "jwtVerifier"],
  "./ext/oauth": ["InMemoryOAuthStore", "OAuthClient", "OAuthError"],
  "./ext/oauth/node": ["loopbackAuthorization"],
};

const specifier = (subpath: string) => `${pkg.name}/${subpath.slice(2)}`;
const codeSubpaths = Object.keys(pkg.exports).filter((subpath) => subpath !== "./package.json");

/** Runs an ES module snippet in a child node from the package root (so the package resolves itself); returns its stdout. */
function runNode(source: string, args: string[] = []): string {
  const run = spawnSync(process.execPath, [...args, "--input-type=module", "-e", source], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`node exited ${run.status}:\n${run.stderr}`);
  return run.stdout;
}

beforeAll(() => ensureBuilt("runtime/entries/server.js"), 180_000);

describe("package.json exports, loaded from dist/ by the package's own name", () => {
  it("lists exactly the entries this test knows (no root entry: every import names its side)", () => {
    expect(codeSubpaths.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("declares the revisions' entries as one pattern, and ./types as the default revision", () => {
    expect(Object.keys(declared.exports).filter((subpath) => subpath.startsWith("./types/"))).toEqual(["./types/*"]);
    expect((declared.exports["./types"] as ExportTarget).default).toBe(`./dist/generated/${readSources(root).defaultRevision}/index.js`);
  });

  it("points every condition of every entry at built files that exist, types first and default last", () => {
    for (const subpath of codeSubpaths) {
      const target = pkg.exports[subpath] as ExportTarget;
      const conditions = Object.keys(target);
      expect(conditions[0], subpath).toBe("types");
      expect(conditions.at(-1), subpath).toBe("default");
      // Only the client has a node file of its own (the real stdio client).
      expect(conditions, subpath).toEqual(subpath === "./client" ? ["types", "node", "default"] : ["types", "default"]);
      for (const file of Object.values(target)) expect(existsSync(join(root, file)), `${subpath}: ${file}`).toBe(true);
    }
  });

  it("points every condition of the package's own import map at built files that exist", () => {
    const imports = (pkg as unknown as { imports: Record<string, Record<string, string>> }).imports;
    expect(Object.keys(imports).sort()).toEqual(["#portable-hashes", "#schema-compiler", "#stdio-spawn"]);
    for (const [name, conditions] of Object.entries(imports)) {
      expect(Object.keys(conditions), name).toEqual(["types", "node", "default"]);
      for (const target of Object.values(conditions)) expect(existsSync(join(root, target)), `${name}: ${target}`).toBe(true);
    }
  });

  it("gives each entry exactly its public runtime names", () => {
    const script = `
      const names = {};
      for (const spec of ${JSON.stringify(codeSubpaths.map(specifier))}) names[spec] = Object.keys(await import(spec)).sort();
      process.stdout.write(JSON.stringify(names));`;
    const loaded = JSON.parse(runNode(script)) as Record<string, string[]>;
    for (const subpath of codeSubpaths) {
      expect(loaded[specifier(subpath)], subpath).toEqual([...EXPECTED[subpath]!].sort());
    }
  });

  it("gives mcp-roundtrip/client the same names under the default condition (a browser, a worker) as under node", () => {
    const web = (pkg.exports["./client"] as ExportTarget).default!;
    const names = JSON.parse(runNode(`process.stdout.write(JSON.stringify(Object.keys(await import(${JSON.stringify(web)})).sort()));`)) as string[];
    expect(names).toEqual([...EXPECTED["./client"]!].sort());
  });

  describe("what an entry loads", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "mcp-roundtrip-exports-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** Every module URL a fresh node resolves to import `specifier`. */
    const modulesLoadedBy = (specifier: string): string[] => {
      // A resolve hook (off-thread on Node 20, hence the file) records every module the import pulls in.
      const log = join(dir, `resolved-${specifier.replaceAll("/", "_")}.txt`);
      const hook = `import { appendFileSync } from "node:fs";
        export async function resolve(specifier, context, next) {
          const result = await next(specifier, context);
          appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
          return result;
        }`;
      runNode(`
        import { register } from "node:module";
        register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
        await import(${JSON.stringify(specifier)});`);
      return readFileSync(log, "utf8").trim().split("\n");
    };

    it("mcp-roundtrip/state loads no server, client or transport module, and no heavy dependency", () => {
      const resolved = modulesLoadedBy(`${pkg.name}/state`);
      expect(resolved.some((url) => url.endsWith("/dist/runtime/state/index.js"))).toBe(true);
      for (const url of resolved) {
        expect(url).not.toMatch(/\/dist\/runtime\/(server|client|transport|entries)\//);
        expect(url).not.toMatch(/^node:(http|child_process)$|@noble|\/ajv\//);
      }
    });

    it("mcp-roundtrip/client under the default condition loads no node: builtin and no server module; its stdio client refuses with what to do", () => {
      const web = (pkg.exports["./client"] as ExportTarget).default!;
      const resolved = modulesLoadedBy(web);
      expect(resolved.some((url) => url.endsWith("/dist/runtime/entries/client.js"))).toBe(true);
      for (const url of resolved) {
        expect(url).not.toMatch(/^node:/);
        expect(url).not.toMatch(/\/dist\/runtime\/(server|state)\/|\/stdio\/(client|child)\.js$/);
      }
      const refusal = runNode(`
        const { StdioClientTransport } = await import(${JSON.stringify(web)});
        await StdioClientTransport.spawn({ command: "node", args: ["server.js"] }).catch((error) => process.stdout.write(error.message));`);
      expect(refusal).toMatch(/^Cannot spawn "node": this runtime has no child processes .*Connect to a Streamable HTTP URL instead/);
    });

    it("mcp-roundtrip/ext/oauth is browser-safe: it loads no node: builtin and no server module", () => {
      const resolved = modulesLoadedBy(`${pkg.name}/ext/oauth`);
      expect(resolved.some((url) => url.endsWith("/dist/runtime/ext/oauth/index.js"))).toBe(true);
      expect(resolved.some((url) => url.includes("/oauth4webapi/"))).toBe(true);
      for (const url of resolved) {
        expect(url).not.toMatch(/^node:/);
        expect(url).not.toMatch(/\/dist\/runtime\/(server|state|ext\/oauth\/node)/);
      }
    });
  });
});

describe("npm pack", () => {
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
  const files = pack.status === 0 ? (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path) : [];

  it("packs the build and the generated code of every entry", () => {
    expect(pack.status, pack.stderr).toBe(0);
    for (const entry of codeSubpaths) {
      for (const file of Object.values(pkg.exports[entry] as ExportTarget)) expect(files).toContain(file.slice(2));
    }
    expect(files).toContain("package.json");
    expect(files).toContain("README.md");
  });

  // Read in node_modules/mcp-roundtrip, the README and the docs must not point at files npm left out.
  it("packs every file the README and the packed docs link to", () => {
    const docs = files.filter((path) => path.endsWith(".md"));
    expect(docs).toContain("docs/server.md");
    const markdownOf = (path: string) => readFileSync(join(root, path), "utf8");
    const links = docs.flatMap((doc) => relativeLinksOf(markdownOf(doc), doc));
    expect(links.filter((link) => link.from === "README.md").length).toBeGreaterThanOrEqual(20);
    expect(brokenLinks(links, files, markdownOf)).toEqual([]);
  });

  it("packs no tests, benchmarks, tooling or spec files", () => {
    const stray = files.filter(
      (path) =>
        /(^|\/)(bench|tools|codegen|scripts|node_modules)\//.test(path) ||
        // The schema sources and overlays are the top-level schema/ (runtime/server/schema/ is runtime code).
        /^schema\//.test(path) ||
        // test/: only the known-answer vectors docs/request-state-format.md links to, as data.
        (/^test\//.test(path) && !/^test\/vectors\/[^/]+\.json$/.test(path)) ||
        /\.(test|spec)\.[cm]?[jt]s$/.test(path) ||
        /mcp-(spec|schema)|(^|\/)shared\//.test(path) ||
        // examples/ ships as source to read; its build (dist/examples) does not ship.
        /^dist\/(?!runtime\/|generated\/)/.test(path),
    );
    expect(stray).toEqual([]);
  });
});
