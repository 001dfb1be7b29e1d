import { en } from 'zod/locales';
import { config, type core } from 'zod/mini';

/**
 * The zod the API's schemas are written with: `zod/mini`, the same validation core as `zod` with
 * functions in place of methods, so a bundle keeps only the checks it uses (a function's cold
 * start loaded and evaluated zod's whole classic API, some 90 KiB; docs/decisions/0005-zod-mini-for-api-schemas.md). Its schemas still have `parse`/`safeParse` and object schemas `shape`, which is all the
 * apps and the functions call. Import it as `import * as z from './zod'` and never use `z` as a
 * value of its own (passing or re-exporting the namespace would keep all of zod in a bundle).
 *
 * `zod/mini` loads no locale: the English messages `zod` gives by default (a value too long, of
 * the wrong type, not one of the options) are configured here, once, for every schema module.
 * The locale's message table is made when the first message is: a function's cold start does not
 * pay for it, and most calls make none.
 */
let english: core.$ZodErrorMap | undefined;
config({ localeError: (issue) => (english ??= en().localeError)(issue) });

export * from 'zod/mini';
