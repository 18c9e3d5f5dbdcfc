/** Emits index.ts: the `mcp-roundtrip/types` entry, re-exporting types and method tables. */
export function emitIndex(header: string): string {
  return `${header}\n\nexport type * from "./types.js";\nexport * from "./methods.js";\n`;
}
