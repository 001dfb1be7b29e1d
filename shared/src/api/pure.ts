/**
 * Builds a schema in a way a bundler can leave out when nothing uses it: every schema module
 * defines its schemas as `export const X = pure(() => z.…)`, each call marked with the `@__PURE__`
 * annotation comment that esbuild and Rollup read. Without it, a schema built with a method call
 * (`z.string().check(…)`, `.shape`) or a function of our own counts as a side effect, and esbuild
 * (the functions) and Vite (the apps) keep and build every schema of every module a bundle touches:
 * a function built all of schemas.ts and products.ts at cold start, about 8 ms, to validate one
 * body (docs/decisions/0006-composition-module-and-side-effect-free-packages.md). The annotation must stay on each call: esbuild does
 * not carry a function's own no-side-effects mark across files.
 */
export function pure<T>(make: () => T): T {
  return make();
}
