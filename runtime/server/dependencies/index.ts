/**
 * Declared dependencies: a tool says what it needs from the user (a form
 * answer, a sampled completion, the client's roots) and the SDK asks,
 * remembers the answers across rounds and runs the handler once everything
 * is there.
 *
 * @packageDocumentation
 */
export { elicit } from "./form-elicitation.js";
export { elicitUrl } from "./url-elicitation.js";
export { sample, listRoots } from "./client-queries.js";
export { ask } from "./ask.js";
export type { AskAnswer, AskParams, AskQuestion } from "./ask.js";
export type { Question, ResolvedValue } from "./questions.js";
export type { ElicitQuestion, Elicitation, ElicitFormContent } from "./form-elicitation.js";
export type { ElicitUrlQuestion, UrlElicitation } from "./url-elicitation.js";
export type { SampleQuestion, ListRootsQuestion, SampleParams } from "./client-queries.js";
export { needs, Needs } from "./declaration.js";
export type { Resolver, NeedsValues } from "./declaration.js";
export { evaluateNeeds } from "./evaluate.js";
export type { DependencyRound, Evaluation } from "./evaluate.js";
export { runWithDependencies } from "./run.js";
export type {
  ElicitSchema,
  ElicitFieldSchema,
  ElicitContent,
  StringFieldSchema,
  NumberFieldSchema,
  BooleanFieldSchema,
  SingleSelectFieldSchema,
  TitledSingleSelectFieldSchema,
  MultiSelectFieldSchema,
} from "./elicitation-schema.js";

export type { NeedsOption, ToolNeeds, DependentToolHandler, DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired, ToolBody } from "./tool.js";
export type {
  AStaticResourceTakesNoNeedsUseATemplate,
  PromptNeeds,
  PromptBody,
  ResourceBody,
  ResourceNeeds,
  DependentPromptHandler,
  DependentTemplateResourceHandler,
  TemplateLike,
  VariablesOf,
} from "./handlers.js";
