import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^mcp-roundtrip$/, replacement: here("./runtime/index.ts") },
      { find: /^mcp-roundtrip\/types$/, replacement: here("./generated/2026-07-28/index.ts") },
      { find: /^mcp-roundtrip\/types\/2025-11-25$/, replacement: here("./generated/2025-11-25/index.ts") },
      { find: /^mcp-roundtrip\/validate$/, replacement: here("./runtime/validate/index.ts") },
      { find: /^mcp-roundtrip\/server$/, replacement: here("./runtime/server/index.ts") },
      { find: /^mcp-roundtrip\/client$/, replacement: here("./runtime/client/index.ts") },
      { find: /^mcp-roundtrip\/http$/, replacement: here("./runtime/transport/http.ts") },
      { find: /^mcp-roundtrip\/http\/web$/, replacement: here("./runtime/transport/http-web.ts") },
      { find: /^mcp-roundtrip\/http\/client$/, replacement: here("./runtime/transport/http-client.ts") },
      { find: /^mcp-roundtrip\/http\/node$/, replacement: here("./runtime/transport/http-node.ts") },
      { find: /^mcp-roundtrip\/stdio$/, replacement: here("./runtime/transport/stdio.ts") },
      { find: /^mcp-roundtrip\/official$/, replacement: here("./runtime/ext/official/index.ts") },
      { find: /^mcp-roundtrip\/redis$/, replacement: here("./runtime/ext/redis/index.ts") },
      { find: /^mcp-roundtrip\/otel$/, replacement: here("./runtime/ext/otel/index.ts") },
      { find: /^mcp-roundtrip\/memory$/, replacement: here("./runtime/transport/memory.ts") },
      { find: /^mcp-roundtrip\/jwt$/, replacement: here("./runtime/ext/jwt/index.ts") },
      { find: /^mcp-roundtrip\/oauth$/, replacement: here("./runtime/ext/oauth/index.ts") },
      { find: /^mcp-roundtrip\/oauth\/node$/, replacement: here("./runtime/ext/oauth/node.ts") },
      // The package's own import map (package.json "imports"), under the node condition the tests run with.
      { find: /^#stdio-spawn$/, replacement: here("./runtime/transport/stdio/spawn-node.ts") },
      { find: /^#schema-compiler$/, replacement: here("./runtime/server/schema/schema-compiler-node.ts") },
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
