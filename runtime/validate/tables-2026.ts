/** The 2026-07-28 validators and method tables. @internal */
import * as methods from "../../generated/2026-07-28/methods.js";
import * as validators from "../../generated/2026-07-28/validators.js";
import type { RevisionTables } from "./core.js";

/** @internal */
export const TABLES_2026: RevisionTables = {
  revision: "2026-07-28",
  validators: validators.validators,
  methodValidators: validators.methodValidators,
  methodTable: methods.METHOD_TABLE,
  notificationTable: methods.NOTIFICATION_TABLE,
};
