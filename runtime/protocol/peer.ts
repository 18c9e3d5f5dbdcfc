/**
 * Loads an optional peer dependency for one of the integration subpaths
 * (`mcp-roundtrip/ext/redis`, `mcp-roundtrip/ext/otel`), so that importing the
 * subpath without the peer installed fails with what to install, not a
 * bare module-not-found from deep inside.
 *
 * @module
 * @internal
 */

/**
 * Imports `specifier`, or throws an error naming the package to install.
 *
 * @param specifier - the peer, e.g. `"redis"`.
 * @param subpath - the entry that needs it, e.g. `"mcp-roundtrip/ext/redis"`.
 * @param install - what to run, e.g. `"npm install redis"`.
 * @throws {Error} when the peer is not installed (other failures of its import pass through).
 * @internal
 */
export async function loadPeer<T>(specifier: string, subpath: string, install: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(`${subpath} needs the optional peer dependency "${specifier}", which is not installed: run \`${install}\``, { cause: error });
  }
}
