/**
 * The 2025-11-25 validators and method tables (about 20 ms to load): the
 * server imports this module only once a 2025-era client appears.
 *
 * @internal
 */
import * as methods from "../../generated/2025-11-25/methods.js";
import * as validators from "../../generated/2025-11-25/validators.js";
import type { RevisionTables } from "./core.js";

/** @internal */
export const TABLES_2025: RevisionTables = {
  revision: "2025-11-25",
  validators: validators.validators,
  methodValidators: validators.methodValidators,
  methodTable: methods.METHOD_TABLE,
  notificationTable: methods.NOTIFICATION_TABLE,
};
