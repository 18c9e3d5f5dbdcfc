/**
 * Canonical JSON for the arguments digest, written exactly as Python's
 * `json.dumps(value, sort_keys=True, separators=(",", ":"))` writes it (with
 * the default `ensure_ascii=True`), so tokens bind arguments identically in
 * this SDK and in the reference SDK.
 *
 * - Object keys are sorted by Unicode code point, as Python compares `str`,
 *   not by UTF-16 code unit as `Array.prototype.sort` would.
 * - Strings escape `"` `\` and `\b \f \n \r \t` in short form and every
 *   other character outside printable ASCII (U+0020–U+007E; DEL included)
 *   as lowercase `\uxxxx`; characters beyond the BMP become surrogate pairs.
 * - Numbers: an integral `number` is written as a Python `int` (all digits),
 *   a fractional one as Python's `repr(float)` (`1e-05`, not `0.00001`);
 *   `bigint` is written as its digits; NaN and ±Infinity as Python writes
 *   them (`NaN`, `Infinity`, `-Infinity`).
 *
 * Where a JavaScript value cannot say what Python saw, the digests differ:
 * - a JSON float with an integral value (`1.0`, `-0.0`, `1e2`): Python keeps
 *   a `float` and writes `1.0`, `-0.0`, `100.0`; `JSON.parse` yields the
 *   number `1`, `0`, `100`, which is written `1`, `0`, `100`;
 * - integers beyond 2^53: `JSON.parse` rounds them; pass them as `bigint`
 *   to keep every digit;
 * - `-0` from the integer literal `-0` is written `0`, as Python does.
 * Arguments arriving over the wire are almost always free of these, and a
 * client echoes the same arguments on every round, so both rounds digest the
 * same way within one SDK.
 *
 * @module
 * @internal
 */

/**
 * Writes `value` as canonical JSON (see the module comment).
 *
 * @throws {TypeError} on a value JSON cannot carry (function, symbol), or
 * nesting deeper than {@link MAX_DEPTH} levels (which is also how a cycle shows).
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0);
}

/** About the nesting Python's json gives up at (its recursion limit of 1000), so no reference token binds deeper arguments. */
const MAX_DEPTH = 1000;

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
      return writeNumber(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "undefined":
      return "null";
    case "object":
      if (value === null) return "null";
      return writeContainer(value, depth + 1);
    default:
      throw new TypeError(`arguments must be JSON values, got a ${typeof value}`);
  }
}

function writeContainer(value: object, depth: number): string {
  if (depth > MAX_DEPTH) {
    throw new TypeError(`arguments must be JSON values nested at most ${MAX_DEPTH} deep (is there a cycle?)`);
  }
  let out: string;
  if (Array.isArray(value)) {
    out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += write(value[i], depth);
    }
    out += "]";
  } else {
    const record = value as Record<string, unknown>;
    // JSON.stringify drops undefined members; the wire never carried them.
    const keys: string[] = [];
    for (const key in record) {
      if (Object.hasOwn(record, key) && record[key] !== undefined) keys.push(key);
    }
    if (keys.length > 1) keys.sort(compareCodePoints);
    out = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (i > 0) out += ",";
      out += quote(key) + ":" + write(record[key], depth);
    }
    out += "}";
  }
  return out;
}

/** Python's float `repr` switches to exponent form below 1e-4; JavaScript only below 1e-6. */
function writeNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (Number.isInteger(value)) {
    // An integral number stands for a Python int: every digit, never "1e+21".
    return Math.abs(value) < 1e21 ? String(value === 0 ? 0 : value) : BigInt(value).toString();
  }
  if (Math.abs(value) >= 1e-4) return String(value);
  // toExponential() without digits gives the shortest round-trip mantissa.
  const [mantissa, exponent] = value.toExponential().split("e") as [string, string];
  const sign = exponent[0] === "-" ? "-" : "+";
  const digits = exponent.replace(/^[+-]/, "");
  return `${mantissa}e${sign}${digits.length < 2 ? "0" + digits : digits}`;
}

const SHORT_ESCAPES: Record<number, string> = {
  0x22: '\\"',
  0x5c: "\\\\",
  0x08: "\\b",
  0x0c: "\\f",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
};

/** Printable ASCII other than `"` and `\\`: such a string is written as is. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function quote(text: string): string {
  if (PLAIN_TEXT.test(text)) return '"' + text + '"';
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c) continue;
    out += text.slice(runStart, i);
    out += SHORT_ESCAPES[code] ?? "\\u" + code.toString(16).padStart(4, "0");
    runStart = i + 1;
  }
  return out + text.slice(runStart) + '"';
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Orders strings by Unicode code point (Python's `str` order). UTF-16 order
 * differs only where a surrogate pair meets a BMP character in U+E000–U+FFFF,
 * so the comparison works on code units and decodes code points only at the
 * first difference.
 */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === length) return a.length - b.length;
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) {
    const before = a.codePointAt(i - 1)! - b.codePointAt(i - 1)!;
    if (before !== 0) return before;
  }
  return a.codePointAt(i)! - b.codePointAt(i)!;
}
