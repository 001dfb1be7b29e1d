import { config } from 'zod/mini';
import { issueSentence } from './messages';

/**
 * The zod the API's schemas are written with: `zod/mini`, the same validation core as `zod` with
 * functions in place of methods, so a bundle keeps only the checks it uses (a function's cold
 * start loaded and evaluated zod's whole classic API, some 90 KiB; docs/decisions/0005-zod-mini-for-api-schemas.md). Its schemas still have `parse`/`safeParse` and object schemas `shape`, which is all the
 * apps and the functions call. Import it as `import * as z from './zod'` and never use `z` as a
 * value of its own (passing or re-exporting the namespace would keep all of zod in a bundle).
 *
 * `zod/mini` loads no locale: the messages of what a schema names no message for (a value
 * missing, too small, too long, of the wrong type, not one of the options) are ./messages.ts's
 * sentences naming the field and the limit, configured here, once, for every schema module.
 */
config({ localeError: issueSentence });

export * from 'zod/mini';
