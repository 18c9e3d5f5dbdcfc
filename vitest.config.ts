import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^mcp-roundtrip\/server$/, replacement: here("./runtime/entries/server.ts") },
      { find: /^mcp-roundtrip\/client$/, replacement: here("./runtime/entries/client-node.ts") },
      { find: /^mcp-roundtrip\/node$/, replacement: here("./runtime/entries/node.ts") },
      { find: /^mcp-roundtrip\/state$/, replacement: here("./runtime/state/index.ts") },
      { find: /^mcp-roundtrip\/validate$/, replacement: here("./runtime/validate/index.ts") },
      { find: /^mcp-roundtrip\/types$/, replacement: here("./generated/2026-07-28/index.ts") },
      // Every revision, one pattern like package.json's "./types/*": a new revision needs no entry here.
      { find: /^mcp-roundtrip\/types\/([\d-]+)$/, replacement: `${here("./generated/")}$1/index.ts` },
      { find: /^mcp-roundtrip\/ext\/redis$/, replacement: here("./runtime/ext/redis/index.ts") },
      { find: /^mcp-roundtrip\/ext\/otel$/, replacement: here("./runtime/ext/otel/index.ts") },
      { find: /^mcp-roundtrip\/ext\/jwt$/, replacement: here("./runtime/ext/jwt/index.ts") },
      { find: /^mcp-roundtrip\/ext\/oauth$/, replacement: here("./runtime/ext/oauth/index.ts") },
      { find: /^mcp-roundtrip\/ext\/oauth\/node$/, replacement: here("./runtime/ext/oauth/node.ts") },
      { find: /^mcp-roundtrip\/ext\/official$/, replacement: here("./runtime/ext/official/index.ts") },
      // The package's own import map (package.json "imports"), under the node condition the tests run with.
      { find: /^#stdio-spawn$/, replacement: here("./runtime/transport/stdio/spawn-node.ts") },
      { find: /^#schema-compiler$/, replacement: here("./runtime/server/schema/schema-compiler-node.ts") },
      { find: /^#portable-hashes$/, replacement: here("./runtime/state/primitives/portable-hashes-node.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "runtime/**/*.test.ts", "codegen/**/*.test.ts"],
    // The published schema and examples (MCP_SCHEMA_DIR, the cache or a download) before any test.
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
