/**
 * One value per process under `key`, however many times the module asking for it is loaded: the
 * handler test files share a worker and import our modules afresh (test/fresh-file.ts), while what
 * these modules install (a guard on `fs`, `process.env`'s getter, a middleware on every SDK client)
 * stays in the process. Such a module keeps the state its installed code reads here, so a later
 * copy of the module and the installed code see the same state.
 */
export function processWide<T>(key: string, make: () => T): T {
  const store = globalThis as Record<symbol, unknown>;
  const symbol = Symbol.for(`portal.processWide.${key}`);
  if (!(symbol in store)) store[symbol] = make();
  return store[symbol] as T;
}
