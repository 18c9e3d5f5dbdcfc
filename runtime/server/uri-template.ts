/** Values of URI template variables: a string, or a list for exploded or list variables. */
export type UriTemplateVariables = Record<string, string | string[]>;

interface Operator {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  /** Reserved characters pass through unencoded (`+` and `#`, RFC 6570 §3.2.3). */
  readonly allowReserved: boolean;
  /** Pattern for the whole expansion, used when matching. */
  readonly pattern: string;
  /** Characters the expansion can never contain after its first one (what `pattern` excludes), for the linear pre-check. */
  readonly stop: string;
}

// RFC 6570 Appendix A, one row per operator.
const OPERATORS: Record<string, Operator> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: false, pattern: "([^/?#]+)", stop: "/?#" },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: true, pattern: "([^?#]+)", stop: "?#" },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", allowReserved: true, pattern: "(#[^]*)?", stop: "" },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", allowReserved: false, pattern: "((?:\\.[^/?#.]*)*)", stop: "/?#" },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", allowReserved: false, pattern: "((?:/[^/?#]*)*)", stop: "?#" },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", allowReserved: false, pattern: "((?:;[^/?#;]*)*)", stop: "/?#" },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", allowReserved: false, pattern: "(\\?[^#]*)?", stop: "#" },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", allowReserved: false, pattern: "(&[^#]*)?", stop: "#" },
};

interface VariableSpec {
  readonly name: string;
  readonly explode: boolean;
  readonly prefix: number | undefined;
}

interface Expression {
  readonly operator: Operator;
  readonly variables: readonly VariableSpec[];
}

type Part = string | Expression;

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encode(value: string, allowReserved: boolean): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (UNRESERVED.test(ch)) out += ch;
    else if (allowReserved && RESERVED.test(ch)) out += ch;
    else if (allowReserved && ch === "%" && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) out += ch;
    else {
      const code = value.codePointAt(i)!;
      const char = String.fromCodePoint(code);
      if (char.length === 2) i++;
      // A lone surrogate cannot be UTF-8 encoded; U+FFFD is what a URI can carry for it.
      out += encodeURIComponent(char.length === 1 && code >= 0xd800 && code <= 0xdfff ? "\uFFFD" : char).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
    }
  }
  return out;
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{", i);
    const close = template.indexOf("}", i);
    if (close !== -1 && (open === -1 || close < open)) {
      throw new TypeError(`UriTemplate: unmatched "}" at offset ${close} in ${JSON.stringify(template)}`);
    }
    if (open === -1) {
      parts.push(template.slice(i));
      break;
    }
    if (open > i) parts.push(template.slice(i, open));
    const end = template.indexOf("}", open);
    if (end === -1) throw new TypeError(`UriTemplate: unclosed "{" at offset ${open} in ${JSON.stringify(template)}`);
    let body = template.slice(open + 1, end);
    let operator = OPERATORS[""]!;
    const first = body[0];
    if (first !== undefined && first in OPERATORS && first !== "") {
      operator = OPERATORS[first]!;
      body = body.slice(1);
    } else if (first !== undefined && "=,!@|".includes(first)) {
      throw new TypeError(`UriTemplate: operator "${first}" is reserved by RFC 6570 and not supported, in ${JSON.stringify(template)}`);
    }
    const variables = body.split(",").map((spec): VariableSpec => {
      let name = spec;
      let explode = false;
      let prefix: number | undefined;
      if (name.endsWith("*")) {
        explode = true;
        name = name.slice(0, -1);
      } else {
        const colon = name.indexOf(":");
        if (colon !== -1) {
          const length = name.slice(colon + 1);
          if (!/^[1-9][0-9]{0,3}$/.test(length)) throw new TypeError(`UriTemplate: bad prefix length in {${body}}`);
          prefix = Number(length);
          name = name.slice(0, colon);
        }
      }
      if (!VARNAME.test(name)) throw new TypeError(`UriTemplate: bad variable name ${JSON.stringify(spec)} in ${JSON.stringify(template)}`);
      return { name, explode, prefix };
    });
    parts.push({ operator, variables });
    i = end + 1;
  }
  return parts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * An RFC 6570 URI template (levels 1–4): expands variables into a URI and
 * matches a URI back to its variables. Resource templates of `McpServer`
 * use it to route `resources/read`.
 *
 * @example
 * ```ts
 * const template = new UriTemplate("repo://{owner}/{repo}/issues{?state}");
 * template.match("repo://octo/cat/issues?state=open"); // { owner: "octo", repo: "cat", state: "open" }
 * template.expand({ owner: "octo", repo: "cat" });      // "repo://octo/cat/issues"
 * ```
 */
export class UriTemplate {
  /** The template text as given. */
  readonly template: string;
  /** Names of the template's variables, in order of appearance. */
  readonly variableNames: readonly string[];
  private readonly parts: readonly Part[];
  private readonly regex: RegExp;
  private readonly expressions: number;

  /**
   * @param template - the template text, such as `"file:///{+path}"`
   * @throws TypeError when the template is not a string or is malformed (unbalanced braces, bad names)
   */
  constructor(template: string) {
    if (typeof template !== "string") throw new TypeError(`UriTemplate: expected a template string, got ${typeof template}`);
    this.template = template;
    this.parts = parse(template);
    const names: string[] = [];
    let source = "^";
    for (const part of this.parts) {
      if (typeof part === "string") source += escapeRegExp(part);
      else {
        source += part.operator.pattern;
        for (const variable of part.variables) names.push(variable.name);
      }
    }
    this.regex = new RegExp(`${source}$`, "u");
    this.expressions = this.parts.filter((part) => typeof part !== "string").length;
    this.variableNames = Object.freeze(names);
  }

  /**
   * True when `text` is meant as a template rather than a fixed URI: braces
   * cannot appear in a URI (RFC 3986), so any brace marks a template, and a
   * malformed one then fails loudly in the constructor.
   */
  static isTemplate(text: string): boolean {
    return text.includes("{") || text.includes("}");
  }

  /**
   * Expands the template (RFC 6570 §3.2). Undefined variables are skipped.
   * @param variables - values by name
   */
  expand(variables: UriTemplateVariables): string {
    let out = "";
    for (const part of this.parts) {
      if (typeof part === "string") {
        out += encode(part, true);
        continue;
      }
      const { operator } = part;
      const pieces: string[] = [];
      for (const spec of part.variables) {
        const value = variables[spec.name];
        if (value === undefined) continue;
        if (typeof value === "string") {
          const text = encode(spec.prefix === undefined ? value : [...value].slice(0, spec.prefix).join(""), operator.allowReserved);
          pieces.push(operator.named ? (value === "" ? spec.name + operator.ifEmpty : `${spec.name}=${text}`) : text);
        } else if (value.length > 0) {
          const encoded = value.map((item) => encode(item, operator.allowReserved));
          if (!spec.explode) pieces.push((operator.named ? `${spec.name}=` : "") + encoded.join(","));
          else if (operator.named)
            pieces.push(encoded.map((item, n) => (value[n] === "" ? spec.name + operator.ifEmpty : `${spec.name}=${item}`)).join(operator.separator));
          else pieces.push(encoded.join(operator.separator));
        }
      }
      if (pieces.length > 0) out += operator.first + pieces.join(operator.separator);
    }
    return out;
  }

  /**
   * Matches a URI against the template.
   * @param uri - the URI a client asked for
   * @returns the variables' decoded values, or `undefined` when the URI does not fit the template
   */
  match(uri: string): UriTemplateVariables | undefined {
    // Two or more expressions make the regex backtrack quadratically (or worse) on a URI that does not fit,
    // so a long client-chosen URI could stall the process; a linear check rules those out first.
    if (this.expressions > 1 && !this.couldMatch(uri)) return undefined;
    const found = this.regex.exec(uri);
    if (found === null) return undefined;
    const variables: UriTemplateVariables = {};
    let group = 1;
    for (const part of this.parts) {
      if (typeof part === "string") continue;
      const captured = found[group++];
      if (captured === undefined || captured === "") continue;
      if (!this.assign(part, captured, variables)) return undefined;
    }
    return variables;
  }

  /**
   * Whether the regex can match `uri` at all, in O(length × parts): the set
   * of positions each part can end at, part by part. Never false where the
   * regex would match (it is a filter; the regex still decides and captures).
   */
  private couldMatch(uri: string): boolean {
    const n = uri.length;
    let reach = new Uint8Array(n + 1);
    reach[0] = 1;
    for (const part of this.parts) {
      const next = new Uint8Array(n + 1);
      if (typeof part === "string") {
        for (let p = 0; p + part.length <= n; p++) if (reach[p] === 1 && uri.startsWith(part, p)) next[p + part.length] = 1;
      } else {
        const { first, stop } = part.operator;
        if (first !== "") next.set(reach); // these expansions may be empty
        let open = false;
        for (let p = 0; p < n; p++) {
          const ch = uri[p]!;
          const allowed = !stop.includes(ch);
          const starts = reach[p] === 1 && (first === "" ? allowed : ch === first);
          open = starts || (open && allowed);
          if (open) next[p + 1] = 1;
        }
      }
      reach = next;
    }
    return reach[n] === 1;
  }

  private assign(expression: Expression, captured: string, out: UriTemplateVariables): boolean {
    const { operator, variables } = expression;
    const body = captured.slice(operator.first.length);
    if (operator.named) {
      const pairs = new Map<string, string[]>();
      for (const item of body.split(operator.separator)) {
        if (item === "") continue;
        const eq = item.indexOf("=");
        const name = eq === -1 ? item : item.slice(0, eq);
        const raw = eq === -1 ? "" : item.slice(eq + 1);
        const list = pairs.get(name) ?? [];
        list.push(raw);
        pairs.set(name, list);
      }
      for (const spec of variables) {
        const raws = pairs.get(spec.name);
        if (raws === undefined) continue;
        const values = spec.explode ? raws : raws[0]!.split(",");
        const decoded = values.map(decode);
        if (decoded.some((value) => value === undefined)) return false;
        out[spec.name] = spec.explode || decoded.length > 1 ? (decoded as string[]) : decoded[0]!;
      }
      return true;
    }
    const items = body.split(operator.separator);
    let index = 0;
    for (let v = 0; v < variables.length; v++) {
      const spec = variables[v]!;
      if (index >= items.length) break;
      // An exploded variable (or the last one) takes every remaining item.
      const isLast = v === variables.length - 1;
      const raw = spec.explode ? items.slice(index) : isLast && variables.length === 1 ? [items.slice(index).join(operator.separator)] : [items[index]!];
      index += raw.length;
      const decoded = raw.map(decode);
      if (decoded.some((value) => value === undefined)) return false;
      out[spec.name] = spec.explode ? (decoded as string[]) : decoded[0]!;
    }
    return true;
  }

  /** The template text. */
  toString(): string {
    return this.template;
  }
}
