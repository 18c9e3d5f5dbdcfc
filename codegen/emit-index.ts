/** Emits index.ts: the `mcp-roundtrip/types` entry, re-exporting types, method tables and the input kinds. */
export function emitIndex(header: string): string {
  return `${header}\n\nexport type * from "./types.js";\nexport * from "./methods.js";\nexport * from "./kinds.js";\n`;
}
