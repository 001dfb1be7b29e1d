import { pure } from '../api/pure';
import * as z from '../api/zod';
import { formatCount, formatMoney } from './format';
import { MAX_PRICE_CENTS, parsePrice, quoteValue } from './money';
import { sha256Hex } from './sha256';

/**
 * The supplier catalogue CSV: its columns, the header mapping and the validation of one row
 * into an import-ready product. Pure and synchronous, shared by the import Lambda and any
 * screen that wants to check a file before uploading it.
 *
 * Row numbers. Every issue names a `row`: the line of the file on which that row starts, as a
 * person counts lines in a text editor, with the header on line 1. Blank lines count, so row 5
 * is line 5 of the file even when line 3 is empty; a row whose quoted description spans lines
 * 5-8 is row 5, and the next row is row 9. Issues about the header itself use row 1.
 */

export const IMAGE_SLOT_COLUMNS = [
  'product_images_1',
  'product_images_2',
  'product_images_3',
  'product_images_4',
  'product_images_5',
  'product_images_6',
] as const;

export const CSV_COLUMNS = [
  'product_name',
  'brand',
  'msrp_us',
  'dropshipping_price_us',
  ...IMAGE_SLOT_COLUMNS,
  'additional_product_images',
  'html_description',
  'url',
  'spu_no',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/**
 * The two columns the portal's rejected-rows download adds after the supplier's own columns:
 * the file line the row came from and what is wrong with it. Their names (brackets and a space)
 * are nothing a supplier export uses; the import ignores them, with a warning that says where
 * they came from, so the fixed download can be uploaded as it is.
 */
export const REPORT_ROW_COLUMN = '[portal] row';
export const REPORT_PROBLEM_COLUMN = '[portal] problem';
/** 'rejected' (not imported: fix it and upload again) or 'imported with a warning'. */
export const REPORT_OUTCOME_COLUMN = '[portal] outcome';
export const REPORT_COLUMNS: readonly string[] = [REPORT_OUTCOME_COLUMN, REPORT_ROW_COLUMN, REPORT_PROBLEM_COLUMN];

/** A file without one of these columns is rejected as a whole. The others may be absent. */
export const REQUIRED_COLUMNS = [
  'product_name',
  'msrp_us',
  'dropshipping_price_us',
  'spu_no',
] as const satisfies readonly CsvColumn[];

export const CSV_LIMITS = {
  productNameChars: 500,
  brandChars: 200,
  spuNoChars: 100,
  urlChars: 2048,
  /** html_description, counted in UTF-8 bytes: 100 KB. */
  descriptionBytes: 100 * 1024,
  additionalImages: 30,
} as const;

/**
 * Bumped whenever the meaning of a stored product changes for the same CSV text (new
 * normalization, new sanitizer rules), so that a re-import rewrites every product instead of
 * skipping the "unchanged" ones.
 */
export const CONTENT_HASH_VERSION = 'csv-product/1';

// ---------------------------------------------------------------------------------------------
// Issues and fatal problems

// On zod/mini, each built only where it is used (../api/zod.ts, ../api/pure.ts): these schemas
// give the import's types and the tests' shape checks; the import validates rows by hand.
export const CsvIssueSchema = /* @__PURE__ */ pure(() =>
  z.object({
    /** The file line on which the row starts (header = 1); see the module comment. */
    row: z.int().check(z.positive()),
    /** The canonical column, the header text of an ignored column, or null for the whole row. */
    column: z.nullable(z.string()),
    /** Reads on after "Row 7, column msrp_us: ". */
    message: z.string(),
  }),
);
export type CsvIssue = z.infer<typeof CsvIssueSchema>;

export const CsvFatalKind = /* @__PURE__ */ pure(() =>
  z.enum([
    'empty',
    'no-rows',
    'not-comma-separated',
    'missing-columns',
    'duplicate-columns',
    'not-utf8',
    'broken-quoting',
    'row-too-long',
  ]),
);
export type CsvFatalKind = z.infer<typeof CsvFatalKind>;

/** A problem that rejects the whole file: nothing from it is imported. */
export const CsvFatalSchema = /* @__PURE__ */ pure(() =>
  z.object({
    kind: CsvFatalKind,
    /** The file line where the file breaks, when there is one. */
    line: z.nullable(z.int().check(z.positive())),
    message: z.string(),
  }),
);
export type CsvFatal = z.infer<typeof CsvFatalSchema>;

/** "Row 7, column msrp_us: '12.345' has more than two decimals". */
export function formatIssue(issue: CsvIssue): string {
  const where = issue.column === null ? `Row ${issue.row}` : `Row ${issue.row}, column ${issue.column}`;
  return `${where}: ${issue.message}`;
}

// ---------------------------------------------------------------------------------------------
// The product a valid row becomes

const hex = (length: number) => z.string().check(z.regex(new RegExp(`^[0-9a-f]{${length}}$`)));

/** An imported product as read from one CSV row, before approval. Money in cents. */
export const CsvProductSchema = /* @__PURE__ */ pure(() =>
  z.object({
    /** productIdFromSpuNo(spu_no): re-importing the same spu_no updates the same product. */
    id: hex(32),
    spu_no: z.string().check(z.minLength(1), z.maxLength(CSV_LIMITS.spuNoChars)),
    product_name: z.string().check(z.minLength(1), z.maxLength(CSV_LIMITS.productNameChars)),
    /** '' when the file has no brand for the product. */
    brand: z.string().check(z.maxLength(CSV_LIMITS.brandChars)),
    msrp_us_cents: z.int().check(z.positive(), z.maximum(MAX_PRICE_CENTS)),
    dropshipping_price_us_cents: z.int().check(z.positive(), z.maximum(MAX_PRICE_CENTS)),
    /** The usable addresses of product_images_1..6, in slot order; empty and dropped slots left out. */
    product_images: z.array(z.url({ protocol: /^https?$/ })).check(z.maxLength(IMAGE_SLOT_COLUMNS.length)),
    additional_product_images: z.array(z.url({ protocol: /^https?$/ })).check(z.maxLength(CSV_LIMITS.additionalImages)),
    /** As in the file (trimmed); the server replaces it with its sanitized form before storing. */
    html_description: z.string(),
    /** The supplier's product page, '' when absent. */
    url: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
    /** contentHashOf(the fields above but id): equal hashes mean the row did not change. */
    content_hash: hex(64),
  }),
);
export type CsvProduct = z.infer<typeof CsvProductSchema>;
export type CsvProductContent = Omit<CsvProduct, 'id' | 'content_hash'>;

/** Lower-case hex SHA-256 of a string's UTF-8 bytes; the default is sha256Hex (node:crypto). */
export type HashHex = (text: string) => string;

/**
 * spu_no as an identity: Unicode NFC, control characters and runs of white space made one
 * space, trimmed. Case is kept: 'ab-1' and 'AB-1' are different products.
 */
export function normalizeSpuNo(spuNo: string): string {
  return normalizeText(spuNo);
}

/**
 * The product id: the first 32 hex digits (128 bits) of the SHA-256 of the UTF-8 bytes of the
 * normalized spu_no. Deterministic, so every import of a spu_no upserts the same product;
 * reproducible by hand with `printf %s 'SPU-1' | sha256sum | cut -c1-32`.
 */
export function productIdFromSpuNo(spuNo: string, hash: HashHex = sha256Hex): string {
  return hash(normalizeSpuNo(spuNo)).slice(0, 32);
}

/**
 * SHA-256 (64 hex digits) of the normalized row content plus CONTENT_HASH_VERSION, computed
 * over the description as it is in the file (the sanitizer is deterministic, so equal input
 * gives equal stored output). A re-import whose hash equals the stored one changes nothing.
 */
export function contentHashOf(content: CsvProductContent, hash: HashHex = sha256Hex): string {
  return hash(
    JSON.stringify([
      CONTENT_HASH_VERSION,
      content.spu_no,
      content.product_name,
      content.brand,
      content.msrp_us_cents,
      content.dropshipping_price_us_cents,
      content.product_images,
      content.additional_product_images,
      content.html_description,
      content.url,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Header

export interface HeaderMapping {
  /** How many values every row must have: the number of cells in the header. */
  readonly columnCount: number;
  /** Canonical column -> 0-based position in a row. Optional columns may be absent. */
  readonly positions: ReadonlyMap<CsvColumn, number>;
}

export type HeaderResult = { ok: true; mapping: HeaderMapping; warnings: CsvIssue[] } | { ok: false; fatal: CsvFatal };

const KNOWN_COLUMNS: ReadonlySet<string> = new Set(CSV_COLUMNS);

function isCsvColumn(name: string): name is CsvColumn {
  return KNOWN_COLUMNS.has(name);
}

/** Header names match case-insensitively, ignoring surrounding spaces (and a byte-order mark) and a formula guard. */
export function normalizeHeaderName(name: string): string {
  return withoutFormulaGuard(name).trim().toLowerCase();
}

/**
 * Maps the header cells (the first non-blank record, normally on line 1) to canonical columns. Unknown columns are ignored with a warning;
 * blank header cells are ignored silently (spreadsheets often export trailing empty columns).
 * Fatal: a header that is one cell holding ';' or a tab (not comma-separated), a column that
 * appears twice (which value would count is unclear), or a missing required column.
 */
export function mapHeader(cells: readonly string[], line = 1): HeaderResult {
  const wrongDelimiter = detectWrongDelimiter(cells, line);
  if (wrongDelimiter) return { ok: false, fatal: wrongDelimiter };
  const found = new Map<CsvColumn, number[]>();
  const warnings: CsvIssue[] = [];
  cells.forEach((cell, index) => {
    const name = normalizeHeaderName(cell);
    if (name === '') return;
    if (!isCsvColumn(name)) {
      warnings.push({
        row: line,
        column: cell.trim(),
        message: REPORT_COLUMNS.includes(name)
          ? "added by the portal's rejected-rows download; its values were ignored"
          : 'not a column the import uses; its values were ignored',
      });
      return;
    }
    found.set(name, [...(found.get(name) ?? []), index]);
  });
  const duplicate = [...found].find(([, indexes]) => indexes.length > 1);
  if (duplicate) return { ok: false, fatal: duplicateColumnFatal(duplicate[0], duplicate[1], line) };
  const missing = REQUIRED_COLUMNS.filter((column) => !found.has(column));
  if (missing.length > 0) return { ok: false, fatal: missingColumnsFatal(missing, line) };
  const positions = new Map([...found].map(([column, indexes]): [CsvColumn, number] => [column, indexes[0] ?? 0]));
  return { ok: true, mapping: { columnCount: cells.length, positions }, warnings };
}

function detectWrongDelimiter(cells: readonly string[], line: number): CsvFatal | null {
  const only = cells.length === 1 ? (cells[0] ?? '') : '';
  const used = only.includes(';') ? "';'" : only.includes('\t') ? 'tabs' : null;
  if (!used) return null;
  return {
    kind: 'not-comma-separated',
    line,
    message: `The file does not look comma-separated: its first line uses ${used} between the column names. Save it as CSV with commas (CSV UTF-8) and upload it again.`,
  };
}

function duplicateColumnFatal(column: CsvColumn, indexes: readonly number[], line: number): CsvFatal {
  const places = listInEnglish(indexes.map((index) => String(index + 1)));
  return {
    kind: 'duplicate-columns',
    line,
    message: `The column ${column} appears more than once in the header (columns ${places}); keep only one.`,
  };
}

function missingColumnsFatal(missing: readonly CsvColumn[], line: number): CsvFatal {
  const noun = missing.length === 1 ? 'column' : 'columns';
  return {
    kind: 'missing-columns',
    line,
    message: `The file is missing the required ${noun} ${listInEnglish(missing)}. The first line must name the columns, including ${listInEnglish(REQUIRED_COLUMNS)}.`,
  };
}

export function listInEnglish(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------
// Rows

/** A valid row's product before its content hash: what validation alone needs (id and spu_no). */
export type CheckedProduct = Omit<CsvProduct, 'content_hash'>;

/** One row's outcome: its product (null when the row has errors), errors and warnings. */
export interface RowOutcome<P extends CheckedProduct = CsvProduct> {
  row: number;
  /** The import-ready product, or null when the row has errors. */
  product: P | null;
  errors: readonly CsvIssue[];
  warnings: readonly CsvIssue[];
}

export type ValidatedRow = RowOutcome<CsvProduct>;
export type CheckedRow = RowOutcome<CheckedProduct>;

/** The issues of a row that has none: one shared, frozen array rather than new ones per row. */
const NO_ISSUES: readonly CsvIssue[] = Object.freeze([]);

/** Collects the issues of one row; its arrays are made only for a row that has issues. */
class RowIssues {
  errors: readonly CsvIssue[] = NO_ISSUES;
  warnings: readonly CsvIssue[] = NO_ISSUES;
  constructor(readonly row: number) {}
  error(column: CsvColumn | null, message: string): undefined {
    this.errors = [...this.errors, { row: this.row, column, message }];
    return undefined;
  }
  warn(column: CsvColumn | null, message: string): void {
    this.warnings = [...this.warnings, { row: this.row, column, message }];
  }
}

/**
 * Validates one data row (its cells as the CSV parser split them) into a product, or into
 * errors. Every problem of the row is reported, not only the first. Warnings never reject a
 * row: a bad image address drops that image, a sell price above MSRP or a product without
 * images is only pointed out.
 */
export function validateProductRow(
  cells: readonly string[],
  row: number,
  header: HeaderMapping,
  hash: HashHex = sha256Hex,
): ValidatedRow {
  const checked = checkProductRow(cells, row, header, hash);
  return checked.product
    ? { ...checked, product: withContentHash(checked.product, hash) }
    : { ...checked, product: null };
}

/**
 * validateProductRow without the content hash, the costliest step of a row: the importer's
 * validation pass needs only the outcome and the product's id, and hashes the rows it stores.
 */
export function checkProductRow(
  cells: readonly string[],
  row: number,
  header: HeaderMapping,
  hash: HashHex = sha256Hex,
): CheckedRow {
  const issues = new RowIssues(row);
  if (cells.length !== header.columnCount) {
    issues.error(null, columnCountMessage(cells.length, header.columnCount));
    return { row, product: null, errors: issues.errors, warnings: NO_ISSUES };
  }
  const value = (column: CsvColumn): string => {
    const position = header.positions.get(column);
    return position === undefined ? '' : withoutFormulaGuard(cells[position] ?? '');
  };
  const product = readProduct(value, issues, hash);
  if (!product || issues.errors.length > 0) {
    return { row, product: null, errors: issues.errors, warnings: issues.warnings };
  }
  addAdvice(product, issues);
  return { row, product, errors: NO_ISSUES, warnings: issues.warnings };
}

/** The checked product with its content hash: what is stored. */
export function withContentHash(product: CheckedProduct, hash: HashHex = sha256Hex): CsvProduct {
  return storedProduct(product, product.html_description, contentHashOf(product, hash));
}

/**
 * The product to store: the checked one with `htmlDescription` (its sanitized description) and
 * its content hash, built as one object literal (no spread, no copy to change afterwards).
 */
export function storedProduct(product: CheckedProduct, htmlDescription: string, contentHash: string): CsvProduct {
  return {
    id: product.id,
    spu_no: product.spu_no,
    product_name: product.product_name,
    brand: product.brand,
    msrp_us_cents: product.msrp_us_cents,
    dropshipping_price_us_cents: product.dropshipping_price_us_cents,
    product_images: product.product_images,
    additional_product_images: product.additional_product_images,
    html_description: htmlDescription,
    url: product.url,
    content_hash: contentHash,
  };
}

/** An apostrophe followed by what a spreadsheet would run as a formula: = + - @ tab or carriage return. */
const FORMULA_GUARD = /^(\s*)'(?=[=+\-@\t\r])/;

/**
 * The value without the apostrophe a formula-safe export puts before = + - @ (OWASP's advice,
 * and what the rejected-rows download does): "'-5" is read as "-5" (and rejected as negative
 * again, with the value shown as the supplier wrote it), "'=HYPERLINK(…)" as "=HYPERLINK(…)".
 * Only that one apostrophe goes; no supplier value has a reason to start with it, and an
 * apostrophe before anything else ("'90s Style") is kept.
 */
export function withoutFormulaGuard(value: string): string {
  // Most values start with a visible ASCII character other than the apostrophe: nothing to remove
  // (ASCII white space is at or below 0x20), and no regular expression to run.
  const first = value.charCodeAt(0);
  if (first > 0x20 && first < 0x7f && first !== APOSTROPHE) return value;
  return value.replace(FORMULA_GUARD, '$1');
}

const APOSTROPHE = 0x27;

function columnCountMessage(values: number, columns: number): string {
  const counts = `has ${values} ${values === 1 ? 'value' : 'values'} but the header names ${columns} columns`;
  return values > columns
    ? `${counts}; a value that contains a comma must be enclosed in double quotes`
    : `${counts}; every row needs a value, possibly empty, for every column`;
}

/** The row's product with its id (undefined when a value is in error), built as one object. */
function readProduct(
  value: (column: CsvColumn) => string,
  issues: RowIssues,
  hash: HashHex,
): CheckedProduct | undefined {
  const spuNo = readRequiredText(value('spu_no'), 'spu_no', CSV_LIMITS.spuNoChars, issues);
  const productName = readName(value('product_name'), 'product_name', CSV_LIMITS.productNameChars, true, issues);
  const brand = readName(value('brand'), 'brand', CSV_LIMITS.brandChars, false, issues);
  const msrp = readPrice(value('msrp_us'), 'msrp_us', issues);
  const dropship = readPrice(value('dropshipping_price_us'), 'dropshipping_price_us', issues);
  const images = readImageSlots(value, issues);
  const additional = readAdditionalImages(value('additional_product_images'), issues);
  const description = readDescription(value('html_description'), issues);
  const url = readSupplierUrl(value('url'), issues);
  if (
    spuNo === undefined ||
    productName === undefined ||
    brand === undefined ||
    msrp === undefined ||
    dropship === undefined ||
    description === undefined ||
    url === undefined
  ) {
    return undefined;
  }
  return {
    id: productIdFromSpuNo(spuNo, hash),
    spu_no: spuNo,
    product_name: productName,
    brand,
    msrp_us_cents: msrp,
    dropshipping_price_us_cents: dropship,
    product_images: images,
    additional_product_images: additional,
    html_description: description,
    url,
  };
}

function addAdvice(content: CheckedProduct, issues: RowIssues): void {
  if (content.dropshipping_price_us_cents > content.msrp_us_cents) {
    const sell = formatMoney(content.dropshipping_price_us_cents);
    issues.warn('dropshipping_price_us', `${sell} is higher than the MSRP of ${formatMoney(content.msrp_us_cents)}`);
  }
  if (content.product_images.length === 0 && content.additional_product_images.length === 0) {
    issues.warn('product_images_1', 'the product has no usable image; its card will show no picture');
  }
}

// --- text -----------------------------------------------------------------------------------

// Control characters are exactly what this pattern is for.
// eslint-disable-next-line no-control-regex
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/** NFC, control characters and runs of white space made one space, trimmed. */
export function normalizeText(text: string): string {
  // Visible ASCII with single spaces between words is already normal: NFC leaves ASCII as it is.
  if (NORMAL_ASCII.test(text)) return text;
  return text.normalize('NFC').replace(SPACE_OR_CONTROL, ' ').trim();
}

/** Visible ASCII characters, single spaces between them, none at either end. */
const NORMAL_ASCII = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

function readRequiredText(raw: string, column: CsvColumn, maxChars: number, issues: RowIssues): string | undefined {
  const text = normalizeText(raw);
  if (text === '') return issues.error(column, 'a value is required');
  if (text.length > maxChars) return issues.error(column, tooLongMessage(text.length, maxChars));
  return text;
}

/** Something that starts like an HTML tag or comment: '<b', '</', '<!', '<?'. */
const MARKUP = /<[/!?]?[a-z!?][^<>]{0,30}>?/i;

/** Names are plain text; markup in them is refused rather than shown or stored. */
function readName(
  raw: string,
  column: CsvColumn,
  maxChars: number,
  required: boolean,
  issues: RowIssues,
): string | undefined {
  const text = required
    ? readRequiredText(raw, column, maxChars, issues)
    : readOptionalText(raw, column, maxChars, issues);
  if (text === undefined) return undefined;
  // MARKUP needs a '<': most names have none, and need no regular expression.
  const markup = text.includes('<') ? MARKUP.exec(text) : null;
  if (markup) return issues.error(column, `contains HTML markup (${quoteValue(markup[0])}); it must be plain text`);
  return text;
}

function readOptionalText(raw: string, column: CsvColumn, maxChars: number, issues: RowIssues): string | undefined {
  const text = normalizeText(raw);
  if (text.length > maxChars) return issues.error(column, tooLongMessage(text.length, maxChars));
  return text;
}

function tooLongMessage(length: number, maxChars: number): string {
  return `is ${formatCount(length)} characters long; the maximum is ${formatCount(maxChars)}`;
}

// --- prices ---------------------------------------------------------------------------------

function readPrice(raw: string, column: CsvColumn, issues: RowIssues): number | undefined {
  const price = parsePrice(raw);
  return price.ok ? price.cents : issues.error(column, price.message);
}

// --- description ----------------------------------------------------------------------------

function readDescription(raw: string, issues: RowIssues): string | undefined {
  const text = raw.trim();
  const limit = CSV_LIMITS.descriptionBytes;
  // A UTF-8 character is at most 3 bytes per UTF-16 code unit, so short text needs no counting.
  if (text.length * 3 <= limit) return text;
  const bytes = utf8ByteLength(text);
  if (bytes <= limit) return text;
  return issues.error(
    'html_description',
    `is ${formatCount(bytes)} bytes; the limit is ${formatCount(limit)} bytes (100 KB)`,
  );
}

/** The UTF-8 size of a string without encoding it. Lone surrogates count as U+FFFD (3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

// --- web addresses --------------------------------------------------------------------------

export type WebAddressResult = { ok: true; href: string } | { ok: false; problem: string };

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * Accepts only absolute http and https addresses (the normalized form is returned). Refused
 * with a reason: other schemes (javascript:, data:, file:, ...), relative and
 * protocol-relative addresses, malformed ones, ones carrying a user name or password, and
 * ones longer than 2,048 characters.
 */
export function checkWebAddress(text: string): WebAddressResult {
  if (text.length <= CSV_LIMITS.urlChars && CANONICAL_WEB_ADDRESS.test(text)) return { ok: true, href: text };
  return parseWebAddress(text);
}

/** checkWebAddress without its fast path: every address goes through URL parsing. */
export function parseWebAddress(text: string): WebAddressResult {
  const shown = quoteValue(text);
  if (text.length > CSV_LIMITS.urlChars) {
    return { ok: false, problem: `${shown} is longer than ${formatCount(CSV_LIMITS.urlChars)} characters` };
  }
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    return { ok: false, problem: `${shown} is not a complete web address; it must start with https:// or http://` };
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return { ok: false, problem: `${shown} uses ${scheme}:, but only http and https addresses are allowed` };
  }
  const url = parseUrl(text);
  if (!url || url.hostname === '') return { ok: false, problem: `${shown} is not a valid web address` };
  if (url.username !== '' || url.password !== '') {
    return { ok: false, problem: `${shown} contains a user name or password` };
  }
  return { ok: true, href: url.href };
}

/**
 * An address that URL parsing gives back unchanged as its href, so it needs no parsing (most image
 * addresses are like this): http or https in lower case, a host of lower-case letters, digits and
 * hyphens in labels that start with a letter (so never an IP address, and no `xn--` label whose
 * punycode the parser would check), then a path of unreserved characters and slashes without a
 * `.` or `..` segment (nor any segment starting with a dot), no port, query, fragment, escapes,
 * user or password. csv-product.test.ts checks it against URL on generated addresses.
 */
const CANONICAL_WEB_ADDRESS =
  /^https?:\/\/(?!xn--)[a-z][a-z0-9-]*(?:\.(?!xn--)[a-z][a-z0-9-]*)*\/(?:[\w~-][\w.~-]*\/)*(?:[\w~-][\w.~-]*)?$/;

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function readImageSlots(value: (column: CsvColumn) => string, issues: RowIssues): string[] {
  const images: string[] = [];
  for (const column of IMAGE_SLOT_COLUMNS) {
    const text = value(column).trim();
    if (text === '') continue;
    const address = checkWebAddress(text);
    if (address.ok) images.push(address.href);
    else issues.warn(column, `${address.problem}; the image was left out`);
  }
  return images;
}

/** Addresses separated by ';' (the supplier writes '; '), each trimmed; empty entries skipped. */
function readAdditionalImages(raw: string, issues: RowIssues): string[] {
  const images: string[] = [];
  // One loop over the ';'-separated entries: no arrays of entries in between.
  let index = 0;
  for (let start = 0; start <= raw.length;) {
    const end = raw.indexOf(';', start);
    const stop = end === -1 ? raw.length : end;
    const entry = raw.slice(start, stop).trim();
    start = stop + 1;
    if (entry === '') continue;
    index += 1;
    const address = checkWebAddress(entry);
    if (address.ok) images.push(address.href);
    else issues.warn('additional_product_images', `image ${index}: ${address.problem}; the image was left out`);
  }
  const max = CSV_LIMITS.additionalImages;
  if (images.length <= max) return images;
  issues.warn('additional_product_images', `has ${images.length} usable images; only the first ${max} were kept`);
  return images.slice(0, max);
}

function readSupplierUrl(raw: string, issues: RowIssues): string | undefined {
  const text = raw.trim();
  if (text === '') return '';
  const address = checkWebAddress(text);
  return address.ok ? address.href : issues.error('url', address.problem);
}
