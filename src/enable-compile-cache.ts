// Node's own compile cache (node:module enableCompileCache, Node 22.1 and later): V8's compiled code
// for each module, kept on disk by Node and checked by Node against the file it came from, so a
// program run again starts without compiling it again. Where the running Node has no such function
// nothing is done: the program just compiles. The CLI's entry calls this, never the library, which
// must not change how the program that imports it loads modules.
import * as nodeModule from 'node:module';

export function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enable === 'function') enable();
}
