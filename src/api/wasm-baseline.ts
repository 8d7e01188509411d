// Imported before undici, for its side effect. undici's HTTP parser is WebAssembly; by default V8
// re-compiles it with its optimising tier on a background thread, and a process that is done waits
// at exit for that to finish: ~70-80 ms after a one-request command, longer than the request. The
// baseline tier (Liftoff) parses the few responses a command reads just as well, so the optimising
// tier is skipped. V8 reads the flag when the module is compiled, so it must be set before undici loads.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
