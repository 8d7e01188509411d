// Node's own compile cache (node:module enableCompileCache, Node 22.1 and later): V8's compiled code
// for each module, kept on disk by Node and checked by Node against the file it came from, so a
// program run again starts without compiling it again. Where the running Node has no such function
// nothing is done: the program just compiles. The CLI's entry calls this, never the library, which
// must not change how the program that imports it loads modules. node:module is loaded here, not at
// the entry's top: printing help or the version never needs it.

export function enableCompileCache(): void {
  const nodeModule = process.getBuiltinModule('node:module') as { enableCompileCache?: () => unknown };
  if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
}
