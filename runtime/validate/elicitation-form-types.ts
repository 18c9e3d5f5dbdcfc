/**
 * The restricted JSON Schema an elicitation form may use: a flat object of
 * primitive fields, as the types a tool author writes a form with. The
 * checker of such schemas and of the answers to them is `elicitation-form.ts`.
 */
/** A free-text field. */
export interface StringFieldSchema {
  /** The field's JSON type. */
  readonly type: "string";
  /** The label the client shows beside the field. */
  readonly title?: string;
  /** Help text shown with the field. */
  readonly description?: string;
  /** The fewest characters (code points) accepted. */
  readonly minLength?: number;
  /** The most characters (code points) accepted. */
  readonly maxLength?: number;
  /** A format the text must have; the client may offer a matching input. */
  readonly format?: "date" | "date-time" | "email" | "uri";
  /** The value the form starts with. */
  readonly default?: string;
}

/** A numeric field; `integer` also rejects fractions. */
export interface NumberFieldSchema {
  /** The field's JSON type. */
  readonly type: "number" | "integer";
  /** The label the client shows beside the field. */
  readonly title?: string;
  /** Help text shown with the field. */
  readonly description?: string;
  /** The smallest value accepted. */
  readonly minimum?: number;
  /** The largest value accepted. */
  readonly maximum?: number;
  /** The value the form starts with. */
  readonly default?: number;
}

/** A yes/no field. */
export interface BooleanFieldSchema {
  /** The field's JSON type. */
  readonly type: "boolean";
  /** The label the client shows beside the field. */
  readonly title?: string;
  /** Help text shown with the field. */
  readonly description?: string;
  /** The value the form starts with. */
  readonly default?: boolean;
}

/** Pick one of `enum` (with legacy display names in `enumNames`). */
export interface SingleSelectFieldSchema {
  /** The field's JSON type. */
  readonly type: "string";
  /** The options, as the values sent back. */
  readonly enum: readonly string[];
  /** Display names for `enum`, in the same order (a legacy form of titled options). */
  readonly enumNames?: readonly string[];
  /** The label the client shows beside the field. */
  readonly title?: string;
  /** Help text shown with the field. */
  readonly description?: string;
  /** The value the form starts with. */
  readonly default?: string;
}

/** Pick one of `oneOf`, each option with a display title. */
export interface TitledSingleSelectFieldSchema {
  /** The field's JSON type. */
  readonly type: "string";
  /** The options, each a value (`const`) and its display `title`. */
  readonly oneOf: readonly {
    /** The value sent back. */
    readonly const: string;
    /** What the user sees. */
    readonly title: string;
  }[];
  /** The label the client shows beside the field. */
  readonly title?: string;
  /** Help text shown with the field. */
  readonly description?: string;
  /** The value the form starts with. */
  readonly default?: string;
}

/** Pick several: `items.enum`, or `items.anyOf` with display titles. */
export interface MultiSelectFieldSchema {
  /** The field's JSON type. */
  readonly type: "array";
  /** The options: an `enum` of values, or `anyOf` values with display titles. */
  readonly items:
    | {
        /** Each picked option is a string. */
        readonly type: "string";
        /** The options, as the values sent back. */
        readonly enum: readonly string[];
      }
    | {
        /** The options, each a value (`const`) and its display `title`. */
        readonly anyOf: readonly {
          /** The value sent back. */
          readonly const: string;
          /** What the user sees. */
          readonly title: string;
        }[];
      };
  /** The fewest options that must be picked. */
  readonly minItems?: number;
  /** The most options that may be picked. */
  readonly maxItems?: number;
  /** The label the client shows beside the field. */
  readonly title?: string;
  /** Help text shown with the field. */
  readonly description?: string;
  /** The value the form starts with. */
  readonly default?: readonly string[];
}

/** One field of an elicitation form (the schema's `PrimitiveSchemaDefinition`). */
export type ElicitFieldSchema =
  | StringFieldSchema
  | NumberFieldSchema
  | BooleanFieldSchema
  | SingleSelectFieldSchema
  | TitledSingleSelectFieldSchema
  | MultiSelectFieldSchema;

/** The `requestedSchema` of a form elicitation: a flat object of primitive fields. */
export interface ElicitSchema {
  /** Always `"object"`: a form is one flat object. */
  readonly type: "object";
  /** The fields, each a string, number, boolean or enum schema; nesting is not allowed. */
  readonly properties: { readonly [field: string]: ElicitFieldSchema };
  /** The fields the user must fill; the others arrive only when filled. */
  readonly required?: readonly string[];
  /** The JSON Schema dialect, when stated. */
  readonly $schema?: string;
}
