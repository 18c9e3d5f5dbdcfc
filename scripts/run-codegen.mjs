// `npm run codegen`: placeholder until the generator lands.
console.log("codegen: not yet available");
