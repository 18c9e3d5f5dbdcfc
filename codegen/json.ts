/** A JSON Schema node as the MCP schema uses it: always an object (never a bare boolean). */
export type SchemaNode = { [keyword: string]: unknown };

/** The part of a schema.json the generator reads. */
export interface SchemaDocument {
  $schema?: string;
  $defs: Record<string, SchemaNode>;
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep copy of JSON data, so corrections never touch the loaded source. */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Calls `visit` on every object node of `root`, depth first, parents before children. */
export function walkNodes(root: unknown, visit: (node: SchemaNode, pointer: string) => void, pointer = ""): void {
  if (Array.isArray(root)) {
    root.forEach((item, index) => {
      walkNodes(item, visit, `${pointer}/${index}`);
    });
  } else if (isObject(root)) {
    visit(root, pointer);
    for (const [key, value] of Object.entries(root)) walkNodes(value, visit, `${pointer}/${escapePointer(key)}`);
  }
}

/** Escapes one JSON Pointer reference token (RFC 6901 §3). */
function escapePointer(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Resolves a JSON Pointer inside `root`.
 *
 * @throws Error naming the pointer when it does not lead to an object node, so
 * an overlay that went stale against a new schema fails loudly.
 */
export function nodeAt(root: unknown, pointer: string): SchemaNode {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
  }
  if (!isObject(node)) throw new Error(`overlay: ${pointer} does not name a schema node in this revision`);
  return node;
}

/** The definition name a local `$ref` (`#/$defs/Name`) points to, or undefined. */
export function refName(node: unknown): string | undefined {
  if (!isObject(node) || typeof node.$ref !== "string") return undefined;
  const match = /^#\/\$defs\/([^/]+)$/.exec(node.$ref);
  return match?.[1];
}
