// typedoc's API, resolved from this folder so that it loads the TypeScript 6
// installed beside it (tools/typedoc/node_modules/typescript), never the repo's 7.
export * from "typedoc";
