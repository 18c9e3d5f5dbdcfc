// Runs the browser example on two origins of this machine: the static page
// (index.html plus app.js, bundled here with esbuild from the built package,
// as a web app would bundle it) on one port, and the booking MCP server on
// another, whose allowedOrigins lets in exactly the page's origin.
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server as NodeHttpServer } from "node:http";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { createBookingServer } from "./server.js";

/** The package root: the nearest folder up from here whose package.json is mcp-roundtrip's. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "mcp-roundtrip") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("examples/browser must run inside the mcp-roundtrip checkout");
    dir = parent;
  }
}

/** The bundled page script: `app.js` and the chunks it loads on demand. */
export interface PageBundle {
  /** Each output file's minified JavaScript, by the path the page requests it at (`/app.js`, `/chunk-….js`). */
  files: Map<string, string>;
  /** Every file esbuild read, relative to the package root. */
  inputs: string[];
}

/**
 * Bundles the page's script for the browser from the built package
 * (`dist/examples/browser/app.js`, which imports `mcp-roundtrip/client`
 * through the package's `exports`), minified, split into chunks, nothing
 * external: a `node:` import anywhere it reaches fails the build. The chunks
 * for a 2025-era server are only fetched when one answers.
 *
 * @throws {Error} when dist/ has not been built (`node scripts/build.mjs`) or esbuild fails.
 */
export async function bundlePage(): Promise<PageBundle> {
  const root = packageRoot();
  const entry = join(root, "dist/examples/browser/app.js");
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the package first (node scripts/build.mjs).`);
  const outdir = join(root, "dist/examples/browser/bundle");
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: entry },
    bundle: true,
    splitting: true,
    outdir,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
    // Resolve mcp-roundtrip/* the way an app does, through package.json, not this repository's tsconfig paths.
    tsconfigRaw: "{}",
  });
  const files = new Map(result.outputFiles.map((file) => [`/${relative(outdir, file.path)}`, file.text]));
  return { files, inputs: Object.keys(result.metafile.inputs) };
}

/** The example's two servers. */
export interface BrowserSite {
  /** The page, with `?server=` naming the MCP endpoint. */
  pageUrl: string;
  /** The page's origin (the one the MCP server allows). */
  pageOrigin: string;
  /** The MCP endpoint. */
  mcpUrl: string;
  /** The scripts the page server serves. */
  bundle: PageBundle;
  close(): Promise<void>;
}

function listen(server: NodeHttpServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    });
  });
}

/**
 * Bundles the page and starts both servers on 127.0.0.1.
 *
 * @param options - `pagePort` and `mcpPort` (default 0: any free port).
 */
export async function startBrowserSite(options: { pagePort?: number; mcpPort?: number } = {}): Promise<BrowserSite> {
  const bundle = await bundlePage();
  const html = readFileSync(join(packageRoot(), "examples/browser/index.html"), "utf8");
  let mcp: HttpServerHandle | undefined;
  const page = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://page").pathname;
    const script = bundle.files.get(path);
    const file =
      path === "/" || path === "/index.html"
        ? { type: "text/html; charset=utf-8", body: html }
        : script !== undefined
          ? { type: "text/javascript; charset=utf-8", body: script }
          : undefined;
    if (request.method === "GET" && path === "/favicon.ico") {
      response.writeHead(204).end(); // no icon, and no 404 in the console
      return;
    }
    if (request.method !== "GET" || file === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    // The page may reach its own origin and the MCP server's, nothing else.
    const csp = `default-src 'self'; style-src 'self' 'unsafe-inline'; connect-src ${mcp === undefined ? "'none'" : new URL(mcp.url).origin}`;
    response.writeHead(200, { "content-type": file.type, "cache-control": "no-store", "content-security-policy": csp }).end(file.body);
  });
  const pagePort = await listen(page, options.pagePort ?? 0);
  const pageOrigin = `http://127.0.0.1:${pagePort}`;
  try {
    mcp = await serveHttp(createBookingServer(), { host: "127.0.0.1", port: options.mcpPort ?? 0, allowedOrigins: [pageOrigin] });
  } catch (error) {
    page.close();
    throw error;
  }
  const mcpUrl = mcp.url;
  return {
    pageUrl: `${pageOrigin}/?server=${encodeURIComponent(mcpUrl)}`,
    pageOrigin,
    mcpUrl,
    bundle,
    async close() {
      await mcp?.close();
      await new Promise<void>((resolve) => page.close(() => resolve()));
    },
  };
}
