/**
 * The `id` of a line too long (or too broken) to parse whole, so stdio can
 * still answer the request it began with an error naming its id.
 *
 * @internal
 */

/**
 * The `id` of a JSON-RPC request whose text is too long (or too broken) to
 * parse whole, read from its first bytes: the `id` member of the top-level
 * object, when it is a string or a safe integer. A scanner, not a parser:
 * it tracks strings and depth only as far as it needs to.
 * @internal
 */
export function peekRequestId(head: Uint8Array): string | number | undefined {
  const text = new TextDecoder("utf-8").decode(head.subarray(0, 64 * 1024));
  let depth = 0;
  let i = 0;
  const readString = (): string | undefined => {
    let out = "";
    for (i++; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        try {
          return JSON.parse(`"${out}"`) as string;
        } catch {
          return undefined;
        }
      }
      if (c === "\\") {
        out += c + (text[i + 1] ?? "");
        i++;
      } else out += c;
    }
    return undefined;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const key = readString();
      if (key === undefined) return undefined;
      if (depth === 1 && key === "id") {
        while (text[i] === " " || text[i] === "\t") i++;
        if (text[i] !== ":") continue;
        i++;
        while (text[i] === " " || text[i] === "\t") i++;
        if (text[i] === '"') return readString();
        const number = /^-?\d+/.exec(text.slice(i, i + 20));
        if (number && !/^[.eE]/.test(text.slice(i + number[0].length, i + number[0].length + 1))) {
          const value = Number(number[0]);
          return Number.isSafeInteger(value) ? value : undefined;
        }
        return undefined;
      }
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    i++;
  }
  return undefined;
}
