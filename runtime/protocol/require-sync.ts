/**
 * Loads a dependency on first use instead of at import, synchronously where
 * the runtime allows it, so a heavy module (AJV's compiler, noble's AES
 * tables) is paid for only by a program that takes the path needing it.
 *
 * @module
 * @internal
 */

type Require = (specifier: string) => unknown;

let cachedRequire: Require | null | undefined;

/**
 * A Node builtin module (`"node:crypto"`, `"node:fs/promises"`…) reached
 * through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno), so no
 * import of a platform module reaches bundles for other runtimes;
 * `undefined` on a runtime without it (a browser, a worker, older Node).
 *
 * @internal
 */
export function nodeBuiltin<T>(id: string): T | undefined {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  return typeof getBuiltinModule === "function" ? (getBuiltinModule(id) as T | undefined) : undefined;
}

/**
 * Like {@link nodeBuiltin}, falling back to `import()` on a Node older than
 * 20.16 (the specifier is a variable, so no bundler follows it).
 *
 * @returns the module, or `undefined` where the runtime has no Node builtins.
 * @internal
 */
export async function loadNodeBuiltin<T>(id: string): Promise<T | undefined> {
  const builtin = nodeBuiltin<T>(id);
  if (builtin !== undefined) return builtin;
  const versions = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions;
  if (typeof versions?.node !== "string") return undefined;
  const specifier: string = id;
  return (await import(/* @vite-ignore */ specifier)) as T;
}

/**
 * A `require` resolving from this package, reached through
 * {@link nodeBuiltin}; `null` elsewhere.
 */
function packageRequire(): Require | null {
  if (cachedRequire === undefined) {
    const nodeModule = nodeBuiltin<typeof import("node:module")>("node:module");
    cachedRequire = typeof nodeModule?.createRequire === "function" ? nodeModule.createRequire(import.meta.url) : null;
  }
  return cachedRequire;
}

/** Errors that mean "this runtime cannot load that module synchronously", not "the module is broken". */
const CANNOT_LOAD_SYNC = new Set(["ERR_REQUIRE_ESM", "ERR_REQUIRE_ASYNC_MODULE"]);

/**
 * Loads `specifier` synchronously: CommonJS packages wherever `createRequire`
 * exists, ES-module packages where `require(esm)` also does (Node ≥ 20.19 or
 * 22.12, Bun).
 *
 * @param specifier - a bare package specifier this package depends on.
 * @returns the module (its namespace for an ES module), or `undefined` where the
 *   runtime cannot load it synchronously; the caller then falls back to `import()`.
 * @throws whatever loading throws for any other reason (a missing or broken dependency).
 * @internal
 */
export function requireSync<T>(specifier: string): T | undefined {
  const load = packageRequire();
  if (load === null) return undefined;
  try {
    return load(specifier) as T;
  } catch (error) {
    if (CANNOT_LOAD_SYNC.has((error as { code?: unknown } | null)?.code as string)) return undefined;
    throw error;
  }
}

/**
 * A dependency loaded at most once, on first use: synchronously where the
 * runtime can (`now()`), else by one shared `import()` (`later()`).
 *
 * @internal
 */
export interface LazyModule<T> {
  /** The loaded value, or `undefined` while it cannot be had synchronously. */
  now(): T | undefined;
  /** Starts the asynchronous load (once) and resolves with the value; `now()` returns it afterwards. */
  later(): Promise<T>;
  /** The asynchronous load still in progress, or `undefined` (loaded, or never started). */
  loading(): Promise<T> | undefined;
}

/**
 * Wraps a synchronous and an asynchronous way to load the same value. The
 * synchronous one is tried until it first answers `undefined` (the runtime
 * cannot), and never again after that.
 *
 * @param loadSync - the value, or `undefined` where the runtime cannot load it synchronously (see {@link requireSync}).
 * @param loadAsync - the value through `import()`.
 * @internal
 */
export function lazyModule<T>(loadSync: () => T | undefined, loadAsync: () => Promise<T>): LazyModule<T> {
  let value: T | undefined;
  let syncUnavailable = false;
  let pending: Promise<T> | undefined;
  return Object.freeze({
    now(): T | undefined {
      if (value === undefined && !syncUnavailable) {
        value = loadSync();
        if (value === undefined) syncUnavailable = true;
      }
      return value;
    },
    later(): Promise<T> {
      pending ??= loadAsync().then((loaded) => (value = loaded));
      return pending;
    },
    loading(): Promise<T> | undefined {
      return value === undefined ? pending : undefined;
    },
  });
}
