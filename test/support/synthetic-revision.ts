// Plausible next revisions, made from a pinned one's schema for the tests that
// add a revision to a copy of the repository: each change is one a real
// revision makes (a new input-request kind with the client capability that
// gates it, a new request method, a new optional result field), written the
// way the published schema writes its own definitions.

type Defs = Record<string, Record<string, unknown>>;
type Schema = { $defs: Defs };

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

/** Pushes a definition onto a union definition (`anyOf` of `$ref`s). */
function join(defs: Defs, union: string, member: string): void {
  const anyOf = defs[union]!.anyOf as unknown[];
  anyOf.push(ref(member));
}

/**
 * A new input-request kind, `confirmation/create` (a yes/no question with an
 * optional `destructive` flag; the answer is `{ confirmed }`), gated by a new
 * client capability `confirmation`.
 */
export function addConfirmationKind(schema: Schema): void {
  const defs = schema.$defs;
  defs.ConfirmationCreateRequestParams = {
    description: "The parameters of a request to confirm an action with the user.",
    type: "object",
    properties: {
      _meta: ref("MetaObject"),
      message: { type: "string", description: "What the user is asked to confirm." },
      destructive: { type: "boolean", description: "Whether the action cannot be undone." },
    },
    required: ["message"],
  };
  defs.ConfirmationCreateRequest = {
    description: "A request from the server to confirm an action with the user.",
    type: "object",
    properties: { method: { const: "confirmation/create", type: "string" }, params: ref("ConfirmationCreateRequestParams") },
    required: ["method", "params"],
  };
  defs.ConfirmationCreateResult = {
    description: "The client's answer to a confirmation/create request.",
    type: "object",
    properties: { _meta: ref("MetaObject"), confirmed: { type: "boolean", description: "Whether the user confirmed." } },
    required: ["confirmed"],
  };
  join(defs, "InputRequest", "ConfirmationCreateRequest");
  join(defs, "InputResponse", "ConfirmationCreateResult");
  const capabilities = defs.ClientCapabilities!.properties as Record<string, unknown>;
  capabilities.confirmation = { description: "Present if the client can ask its user to confirm an action.", type: "object", properties: {} };
}

/** A new request method, `tools/describe` (`{ name }` → `{ summary }`), a client request that may not ask for input. */
export function addToolsDescribe(schema: Schema): void {
  const defs = schema.$defs;
  defs.ToolsDescribeRequestParams = {
    description: "The parameters of a tools/describe request.",
    type: "object",
    properties: { _meta: ref("RequestMetaObject"), name: { type: "string", description: "The tool to describe." } },
    required: ["_meta", "name"],
  };
  defs.ToolsDescribeRequest = clone(defs.CallToolRequest!);
  defs.ToolsDescribeRequest.description = "Sent from the client to ask the server for a longer description of one tool.";
  (defs.ToolsDescribeRequest.properties as Record<string, unknown>).method = { const: "tools/describe", type: "string" };
  (defs.ToolsDescribeRequest.properties as Record<string, unknown>).params = ref("ToolsDescribeRequestParams");
  defs.ToolsDescribeResult = {
    description: "The server's answer to tools/describe.",
    type: "object",
    properties: {
      _meta: ref("ResultMetaObject"),
      resultType: { type: "string" },
      summary: { type: "string", description: "A paragraph on what the tool does." },
    },
    required: ["resultType", "summary"],
  };
  defs.ToolsDescribeResultResponse = clone(defs.CompleteResultResponse!);
  (defs.ToolsDescribeResultResponse.properties as Record<string, unknown>).result = ref("ToolsDescribeResult");
  join(defs, "ClientRequest", "ToolsDescribeRequest");
}

/** A new optional field of a result, `CallToolResult.costUnits`. */
export function addCostUnits(schema: Schema): void {
  (schema.$defs.CallToolResult!.properties as Record<string, unknown>).costUnits = { type: "number", description: "What the call cost, in the server's units." };
}

/** The schema as published bytes (two-space JSON, a final newline). */
export function schemaBytes(schema: Schema): Buffer {
  return Buffer.from(`${JSON.stringify(schema, null, 2)}\n`);
}

/** Parses a published schema into a mutable copy. */
export function parseSchema(bytes: Buffer): Schema {
  return JSON.parse(bytes.toString("utf8")) as Schema;
}

/**
 * The `tools/call` redesign of SEP-3279 ("Negotiated tool result variants",
 * a draft aimed at revision 2026-12-01), from the SEP's types: a tool
 * declares `outputVariants` (required) instead of `outputSchema`; a call may
 * name `requestedOutputs` (selectors); a result carries `outputs` in place of
 * `content` and `structuredContent`. A breaking revision: properties removed,
 * a property required.
 */
export function addOutputVariants(schema: Schema): void {
  const defs = schema.$defs;
  const audience = {
    type: "string",
    description: 'Who the output is for: "assistant", "user", "programmatic", or a negotiated extension\'s identifier.',
  };
  const format = { type: "string", enum: ["content", "structured"], description: "How the output's payload is encoded." };
  defs.ToolResultOutputSelector = {
    description: "Names one output of a tool: an audience and a format.",
    type: "object",
    properties: { audience, format },
    required: ["audience", "format"],
  };
  defs.ContentToolResultVariant = {
    description: "A content output a tool can produce.",
    type: "object",
    properties: { audience, format: { const: "content", type: "string" } },
    required: ["audience", "format"],
  };
  defs.StructuredToolResultVariant = {
    description: "A structured output a tool can produce, with the schema of its payload.",
    type: "object",
    properties: {
      audience,
      format: { const: "structured", type: "string" },
      schema: { type: "object", properties: { $schema: { type: "string" } }, additionalProperties: {} },
    },
    required: ["audience", "format"],
  };
  defs.ToolResultVariant = { anyOf: [ref("ContentToolResultVariant"), ref("StructuredToolResultVariant")] };
  defs.ContentToolResultOutput = {
    description: "One content output of a tool call.",
    type: "object",
    properties: { audience, format: { const: "content", type: "string" }, content: { type: "array", items: ref("ContentBlock") } },
    required: ["audience", "format", "content"],
  };
  defs.StructuredToolResultOutput = {
    description: "One structured output of a tool call.",
    type: "object",
    properties: { audience, format: { const: "structured", type: "string" }, structuredContent: {} },
    required: ["audience", "format", "structuredContent"],
  };
  defs.ToolResultOutput = { anyOf: [ref("ContentToolResultOutput"), ref("StructuredToolResultOutput")] };

  const tool = defs.Tool!;
  const toolProperties = tool.properties as Record<string, unknown>;
  delete toolProperties.outputSchema;
  toolProperties.outputVariants = { type: "array", items: ref("ToolResultVariant"), description: "The outputs the tool can produce." };
  tool.required = [...(tool.required as string[]), "outputVariants"].sort();

  const callParams = defs.CallToolRequestParams!.properties as Record<string, unknown>;
  callParams.requestedOutputs = { type: "array", items: ref("ToolResultOutputSelector"), description: "The outputs the client wants." };

  const result = defs.CallToolResult!;
  const resultProperties = result.properties as Record<string, unknown>;
  delete resultProperties.content;
  delete resultProperties.structuredContent;
  resultProperties.outputs = { type: "array", items: ref("ToolResultOutput"), description: "One output per requested selector." };
  result.required = ["outputs", "resultType"];
}

/** A rename, `Tool.title` → `Tool.displayName`: a breaking change. */
export function renameToolTitle(schema: Schema): void {
  const properties = schema.$defs.Tool!.properties as Record<string, unknown>;
  properties.displayName = properties.title;
  delete properties.title;
}
