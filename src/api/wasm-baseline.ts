// Imported before undici, for its side effect. undici's HTTP parser is WebAssembly; by default V8
// re-compiles it with its optimising tier on a background thread, and a process that is done waits
// at exit for that to finish: ~70-80 ms after a one-request command, longer than the request. The
// baseline tier (Liftoff) parses the few responses a command reads just as well, so the optimising
// tier is skipped. V8 reads the flag when the module is compiled, so it must be set before undici loads.
// Only in the CLI (the build defines MINT_ADMIN_CLI for its bundle): the library must not change V8
// flags of the program that imports it.
import { setFlagsFromString } from 'node:v8';

declare const MINT_ADMIN_CLI: boolean | undefined;

if (typeof MINT_ADMIN_CLI !== 'undefined' && MINT_ADMIN_CLI) setFlagsFromString('--liftoff-only');
