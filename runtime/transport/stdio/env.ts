/**
 * The environment a spawned stdio server gets: a short allow-list taken
 * from this process, plus what the caller passes. The whole parent
 * environment would hand every API key and cloud credential in it to a
 * program that needs none of them.
 *
 * @module
 */

// Pure: a bundle that shares a chunk with this module but spawns nothing (a browser client) drops the list.
/**
 * Variables a spawned server inherits by default: enough to find programs,
 * a home and a temp directory, the user's name, the terminal and the locale.
 */
export const DEFAULT_INHERITED_ENV: readonly string[] = /* @__PURE__ */ Object.freeze([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "TMPDIR",
  "LANG",
  // Their Windows counterparts.
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATHEXT",
  "PROGRAMFILES",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
  "USERNAME",
  "USERPROFILE",
  "WINDIR",
  "COMSPEC",
]);

/**
 * The environment of a child: the allow-listed variables of `parent`, then
 * `extra` on top (`undefined` values remove a variable).
 *
 * @param extra - variables for the child, e.g. `{ API_TOKEN: token }`
 * @param inherit - names taken from `parent` (default {@link DEFAULT_INHERITED_ENV}), or `true` for all of it
 * @param parent - the environment to take them from (default `process.env`)
 */
export function childEnvironment(
  extra: Record<string, string | undefined> | undefined,
  inherit: readonly string[] | true = DEFAULT_INHERITED_ENV,
  parent: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (inherit === true) {
    for (const [name, value] of Object.entries(parent)) if (value !== undefined) env[name] = value;
  } else {
    // Windows spells names in any case (Path, SystemRoot): match them case-insensitively there.
    const wanted = new Set(inherit.map((name) => name.toUpperCase()));
    for (const [name, value] of Object.entries(parent)) {
      if (value !== undefined && wanted.has(name.toUpperCase())) env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
