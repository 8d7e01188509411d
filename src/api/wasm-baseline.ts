// Imported before undici, for its side effect: V8's baseline tier only for undici's WebAssembly
// parser (v8-flags.ts says why). main.ts already sets it before the program compiles, so that the
// code cache is made and read under the same flags; this covers a run that did not.
// Only in the CLI (the build defines MINT_ADMIN_CLI for its bundle): the library must not change V8
// flags of the program that imports it.
import { useWasmBaseline } from '../v8-flags.js';

declare const MINT_ADMIN_CLI: boolean | undefined;

if (typeof MINT_ADMIN_CLI !== 'undefined' && MINT_ADMIN_CLI) useWasmBaseline();
