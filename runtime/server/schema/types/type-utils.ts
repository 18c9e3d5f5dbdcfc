/**
 * Small type-level helpers shared by the schema reader and the dependency
 * declarations. Types only: nothing here exists at run time.
 *
 * @module
 */

/** `T` with its intersections merged into one object type, so hovers and errors show plain members. */
export type Flatten<T> = { [K in keyof T]: T[K] } & {};
