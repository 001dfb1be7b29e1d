import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportJob } from '@portal/shared/api/products';
import { importedProduct, importJob } from '@portal/shared/test/catalogueTesting';
import { authAnswer, fakeApi, type FakeApi, type FakeHandler } from '@portal/shared/test/testing';
import { renderAdminAt } from './testing';
import { DIRECT_UPLOAD_MAX_BYTES } from '../import/upload';
import { importPolling } from '../import/useImportJob';
import { preloadLazyScreens } from './routeScreens';

// Every screen is a chunk of its own: loaded once here, so that no test waits on a first import.
beforeAll(preloadLazyScreens, 60_000);

/** A stand-in for the browser's XMLHttpRequest: records the presigned POST and answers 204. */
class FakeXhr {
  static posts: { method: string; url: string; form: FormData }[] = [];
  static status = 204;
  static responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  #method = '';
  #url = '';
  open(method: string, url: string) {
    this.#method = method;
    this.#url = url;
  }
  send(form: FormData) {
    FakeXhr.posts.push({ method: this.#method, url: this.#url, form });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.status = FakeXhr.status;
      this.responseText = FakeXhr.responseText;
      this.onload?.();
    }, 0);
  }
  abort() {
    this.onabort?.();
  }
}

const originalInterval = importPolling.intervalMs;

beforeEach(() => {
  importPolling.intervalMs = 5;
  FakeXhr.posts = [];
  FakeXhr.status = 204;
  FakeXhr.responseText = '';
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  cleanup();
  importPolling.intervalMs = originalInterval;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderImport(api: FakeApi, path = '/admin/product_import') {
  renderAdminAt(api, path);
}

/** Answers the job's states in turn, then the last one for ever. */
function jobSequence(...states: Partial<ImportJob>[]): FakeHandler {
  let call = 0;
  return () => {
    const state = states[Math.min(call, states.length - 1)];
    call += 1;
    return { body: importJob(state) };
  };
}

const csvFile = (name = 'catalogue.csv', size?: number) => {
  const file = new File(['product_name,brand\n'], name, { type: 'text/csv' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

function adminApi(handlers: Parameters<typeof fakeApi>[0] = {}): FakeApi {
  return fakeApi({
    checkAuth: () => ({ body: authAnswer({ isAdmin: true, email: 'admin@example.com' }) }),
    getUnApprovedProducts: () => ({ body: { items: [], nextCursor: null } }),
    ...handlers,
  });
}

describe('Product Import: pictures after the import (issue 38)', () => {
  it('follows the pictures after the import, says what a failure means, and retries the failed ones with one action', async () => {
    const user = userEvent.setup();
    const done = { id: 'job-p', fileName: 'pictures.csv', status: 'completed' as const, rowsRead: 1500, created: 1500 };
    let retried = false;
    const states = [
      { ...done, pictures: { total: 1500, hosted: 1204, failed: 12 } },
      { ...done, pictures: { total: 1500, hosted: 1488, failed: 12 } },
    ];
    let polls = 0;
    const api = adminApi({
      getImportJob: () => {
        polls += 1;
        if (retried) return { body: importJob({ ...done, pictures: { total: 1500, hosted: 1500, failed: 0 } }) };
        return { body: importJob(states[Math.min(polls - 1, states.length - 1)]) };
      },
      getImportIssues: () => ({
        body: {
          items: [
            {
              row: 7,
              column: 'product_images_1',
              message:
                'The picture https://cdn.example.com/7.jpg was left out of the product: its server answered 503.',
              severity: 'warning',
            },
          ],
          nextCursor: null,
        },
      }),
      retryImportPictures: () => {
        retried = true;
        return { body: { products: 12, message: 'The failed pictures of 12 products are being tried again.' } };
      },
    });
    renderImport(api, '/admin/product_import?job=job-p');
    const summary = await screen.findByTestId('import-pictures-summary');
    expect(summary.textContent).toBe('1,204 of 1,500 hosted, 12 failed');
    expect(screen.getByText(/its card shows a placeholder; you can approve it meanwhile/)).toBeTruthy();
    // Polled on after the import while pictures are pending; the failures settle and can be retried.
    await waitFor(() =>
      expect(screen.getByTestId('import-pictures-summary').textContent).toBe('1,488 of 1,500 hosted, 12 failed'),
    );
    expect(screen.getByText(/12 pictures could not be hosted; their products are shown without them/)).toBeTruthy();
    expect(await screen.findByText(/its server answered 503/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try the failed pictures again' }));
    expect(await screen.findByText('The failed pictures of 12 products are being tried again.')).toBeTruthy();
    expect(api.callsTo('retryImportPictures')[0]?.body).toEqual({ id: 'job-p' });
    await waitFor(() =>
      expect(screen.getByTestId('import-pictures-summary').textContent).toBe('1,500 of 1,500 hosted, 0 failed'),
    );
    expect(screen.queryByRole('button', { name: 'Try the failed pictures again' })).toBeNull();
  });
});

describe('Product Import: upload', () => {
  it('says that only the supplier’s CSV format is accepted, naming the columns', async () => {
    renderImport(adminApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'Product Import' })).toBeTruthy();
    expect(screen.getByText(/Only the supplier’s CSV format is accepted/)).toBeTruthy();
    const columns = within(screen.getByRole('list', { name: 'Columns of the supplier’s CSV format' }));
    expect(columns.getByText('dropshipping_price_us')).toBeTruthy();
    expect(columns.getByText('spu_no')).toBeTruthy();
    expect(screen.getByLabelText('Supplier CSV file').getAttribute('accept')).toBe('.csv,text/csv');
    expect(await screen.findByText('No products are waiting for review.')).toBeTruthy();
  });

  it('sends a small file through /api/products, follows the job and shows the result', async () => {
    const user = userEvent.setup();
    let reviewCalls = 0;
    const api = adminApi({
      getUnApprovedProducts: () => {
        reviewCalls += 1;
        const items = reviewCalls > 1 ? [importedProduct({ id: 'p-new', product_name: 'Fresh Socks' })] : [];
        return { body: { items, nextCursor: null } };
      },
      products: () => ({
        body: {
          job: importJob({ id: 'job-7', fileName: 'catalogue.csv' }),
          unApprovedProducts: { items: [], nextCursor: null },
        },
      }),
      getImportJob: jobSequence(
        { id: 'job-7', status: 'running', phase: 'validating' },
        { id: 'job-7', status: 'running', phase: 'importing', rowsRead: 5, rowsDone: 2 },
        {
          id: 'job-7',
          status: 'completed',
          rowsRead: 5,
          rowsDone: 5,
          created: 3,
          updated: 1,
          unchanged: 1,
          finishedAt: '2026-01-02T03:05:00.000Z',
        },
      ),
    });
    renderImport(api);
    await screen.findByText('No products are waiting for review.');

    await user.upload(screen.getByLabelText('Supplier CSV file'), csvFile());
    expect(screen.getByText('catalogue.csv')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Upload and import' }));

    const status = await screen.findByText('Completed', {}, { timeout: 3000 });
    expect(status.getAttribute('data-testid')).toBe('import-status');
    const sent = api.callsTo('products')[0]?.body;
    expect(sent).toBeInstanceOf(FormData);
    const file = (sent as FormData).get('file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('catalogue.csv');
    expect(api.callsTo('createProductUpload')).toHaveLength(0);
    expect(FakeXhr.posts).toHaveLength(0);
    expect(api.callsTo('getImportJob').every((call) => (call.body as { id: string }).id === 'job-7')).toBe(true);
    // Polled through 'running' to 'completed', and not again after that.
    const polls = api.callsTo('getImportJob').length;
    expect(polls).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('getImportJob')).toHaveLength(polls);

    const counts = within(screen.getByTestId('import-counts'));
    const value = (label: string) => counts.getByText(label).nextElementSibling?.textContent;
    expect(value('Rows read')).toBe('5');
    expect(value('Created')).toBe('3');
    expect(value('Updated')).toBe('1');
    expect(value('Unchanged')).toBe('1');
    expect(value('Rejected')).toBe('0');
    // The counts are said once on screen (the grid) and announced once to screen readers; the
    // banner says what follows.
    const summaries = screen.getAllByText(/Imported: 3 new, 1 updated, 1 unchanged/);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.getAttribute('role')).toBe('status');
    expect(screen.getByTestId('import-next-step').textContent).toBe(
      'The import is complete. 4 products wait for review below.',
    );
    // The job is in the address, and the review list shows what the import brought in.
    expect(screen.getByTestId('where').textContent).toBe('/product_import?job=job-7');
    expect(await screen.findByText('Fresh Socks')).toBeTruthy();
    expect(screen.queryByText(/Rejected rows and warnings/)).toBeNull();
  });

  it('sends a file over 4 MB with a presigned POST: the fields first, the file last', async () => {
    const user = userEvent.setup();
    const api = adminApi({
      createProductUpload: () => ({
        body: {
          job: importJob({ id: 'job-big', fileName: 'big.csv' }),
          url: 'http://bucket.example.test/imports',
          fields: { key: 'imports/job-big/big.csv', Policy: 'cG9saWN5', 'X-Amz-Signature': 'abc' },
        },
      }),
      // A file this long may take more than one run of the import: the report says so.
      getImportJob: jobSequence({ id: 'job-big', status: 'completed', rowsRead: 90_000, created: 90_000, parts: 3 }),
    });
    renderImport(api);
    await screen.findByText('No products are waiting for review.');

    const size = DIRECT_UPLOAD_MAX_BYTES + 1;
    await user.upload(screen.getByLabelText('Supplier CSV file'), csvFile('big.csv', size));
    await user.click(screen.getByRole('button', { name: 'Upload and import' }));
    await screen.findByText('Completed', {}, { timeout: 3000 });

    expect(screen.getByTestId('import-next-step').textContent).toBe(
      'The import is complete (continued in 3 parts: the file was too long for one run, and each part went on where the last stopped, so no row was written or counted twice). 90,000 products wait for review below.',
    );
    expect(api.callsTo('products')).toHaveLength(0);
    expect(api.callsTo('createProductUpload')[0]?.body).toEqual({ fileName: 'big.csv', size });
    expect(FakeXhr.posts).toHaveLength(1);
    const post = FakeXhr.posts[0]!;
    expect(post.method).toBe('POST');
    expect(post.url).toBe('http://bucket.example.test/imports');
    expect([...post.form.keys()]).toEqual(['key', 'Policy', 'X-Amz-Signature', 'file']);
    expect(post.form.get('key')).toBe('imports/job-big/big.csv');
    expect((post.form.get('file') as File).name).toBe('big.csv');
    expect(screen.getAllByText('90,000', { selector: 'dd' })).toHaveLength(2);
  });

  it('tells the admin when the bucket refuses the file', async () => {
    const user = userEvent.setup();
    FakeXhr.status = 400;
    FakeXhr.responseText =
      '<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>';
    const api = adminApi({
      createProductUpload: () => ({
        body: { job: importJob({ id: 'job-big' }), url: 'http://bucket.example.test/imports', fields: { key: 'k' } },
      }),
    });
    renderImport(api);
    await user.upload(
      await screen.findByLabelText('Supplier CSV file'),
      csvFile('big.csv', DIRECT_UPLOAD_MAX_BYTES + 1),
    );
    await user.click(screen.getByRole('button', { name: 'Upload and import' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/The file was not uploaded/);
    expect(alert.textContent).toMatch(/exceeds the maximum allowed size/);
    expect(api.callsTo('getImportJob')).toHaveLength(0);
  });

  it('refuses a file that is not a .csv before sending anything, and Clear starts over', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const api = adminApi();
    renderImport(api);
    const input = (await screen.findByLabelText('Supplier CSV file')) as HTMLInputElement;
    await user.upload(input, new File(['x'], 'catalogue.xlsx', { type: 'application/vnd.ms-excel' }));
    expect(screen.getByText(/"catalogue.xlsx" is not a .csv file/)).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Upload and import' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByText(/is not a .csv file/)).toBeNull();
    expect(input.value).toBe('');
    expect(document.activeElement).toBe(input);
    expect(api.callsTo('products')).toHaveLength(0);
  });

  it('lists the issues of a finished import, more on request, and saves the rejected rows as a file', async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => 'blob:rejected');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const api = adminApi({
      getImportJob: jobSequence({
        id: 'job-3',
        fileName: 'xss-payloads.csv',
        status: 'completed',
        rowsRead: 4,
        created: 2,
        rejected: 2,
        warnings: 1,
      }),
      getImportIssues: ({ body }) => {
        const cursor = (body as { cursor?: string }).cursor;
        return cursor
          ? {
              body: {
                items: [{ row: 9, column: 'url', message: 'is not a web address', severity: 'error' }],
                nextCursor: null,
              },
            }
          : {
              body: {
                items: [
                  { row: 2, column: 'product_name', message: "contains HTML markup ('<script>')", severity: 'error' },
                  { row: 5, column: 'product_images_2', message: 'was left out', severity: 'warning' },
                ],
                nextCursor: 'page-2',
              },
            };
      },
      getRejectedRowsCsv: () => ({
        body: {
          fileName: 'xss-payloads-rejected-rows.csv',
          csv: 'row,column,problem\r\n2,product_name,bad\r\n',
          truncated: false,
        },
      }),
    });
    renderImport(api, '/admin/product_import?job=job-3');

    const table = await screen.findByRole('table', { name: 'Issues found in xss-payloads.csv' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText("contains HTML markup ('<script>')")).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load more issues' }));
    await within(table).findByText('is not a web address');
    expect(api.callsTo('getImportIssues').map((call) => call.body)).toEqual([
      { id: 'job-3' },
      { id: 'job-3', cursor: 'page-2' },
    ]);

    await user.click(screen.getByRole('button', { name: 'Download rejected rows' }));
    await screen.findByText(/^Saved xss-payloads-rejected-rows\.csv\. Fix the cells and upload the file as it is/);
    expect(clicked).toEqual([{ href: 'blob:rejected', download: 'xss-payloads-rejected-rows.csv' }]);
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(blob.type).toBe('text/csv;charset=utf-8');
    // A UTF-8 byte-order mark first (Blob.text() would drop it), so spreadsheets read UTF-8.
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe('row,column,problem\r\n2,product_name,bad\r\n');
  });

  it('offers the rows of an import with warnings only, and says when the download is truncated', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:warn'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const api = adminApi({
      getImportJob: jobSequence({
        id: 'job-5',
        fileName: 'warn.csv',
        status: 'completed',
        rowsRead: 3,
        created: 3,
        warnings: 2,
      }),
      getImportIssues: () => ({
        body: {
          items: [{ row: 3, column: 'product_images_1', message: 'no image', severity: 'warning' }],
          nextCursor: null,
        },
      }),
      getRejectedRowsCsv: () => ({ body: { fileName: 'warn-rows-with-warnings.csv', csv: 'a\r\n', truncated: true } }),
    });
    renderImport(api, '/admin/product_import?job=job-5');
    const button = await screen.findByRole('button', { name: 'Download rows with warnings' });
    expect(screen.queryByRole('button', { name: 'Download rejected rows' })).toBeNull();
    await user.click(button);
    await screen.findByText(/^Saved warn-rows-with-warnings\.csv\. It holds the first rows only/);
    expect(api.callsTo('getRejectedRowsCsv').map((call) => call.body)).toEqual([{ id: 'job-5' }]);
  });

  it('shows why a whole file was refused', async () => {
    const api = adminApi({
      getImportJob: jobSequence({
        id: 'job-4',
        fileName: 'semicolons.csv',
        status: 'rejected',
        failure: 'Line 1: the file is not comma-separated. No rows were imported.',
      }),
      getImportIssues: () => ({ body: { items: [], nextCursor: null } }),
    });
    renderImport(api, '/admin/product_import?job=job-4');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Line 1: the file is not comma-separated. No rows were imported.');
    expect(screen.getByTestId('import-status').textContent).toBe('File refused');
    // Each part of the outcome is said once on the screen (visually hidden text included).
    const page = document.body.textContent ?? '';
    expect(page.split('No rows were imported').length - 1).toBe(1);
    expect(page.split(/refused/i).length - 1).toBe(1);
    // No empty issues section and no zero counts after a refusal with no row issues.
    expect(screen.queryByText('No row-level issues were recorded.')).toBeNull();
    expect(screen.queryByTestId('import-counts')).toBeNull();
  });
});

describe('Product Import: following a job', () => {
  it('a poll that fails with a server error is tried again before the screen offers Check again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const api = adminApi({
      getImportJob: () =>
        fail
          ? { status: 500, body: { message: 'The server had a problem.' } }
          : { body: importJob({ id: 'job-5', status: 'completed', rowsRead: 2, created: 2 }) },
    });
    renderImport(api, '/admin/product_import?job=job-5');
    // While it retries, the failure is said without a button; then Retry is offered.
    const retry = await screen.findByRole('button', { name: 'Retry' });
    const alert = retry.closest('[role="alert"]') as HTMLElement;
    expect(alert.textContent).toMatch(/The import could not be found.*The server had a problem/);
    expect(api.callsTo('getImportJob')).toHaveLength(importPolling.maxFailures);
    // Stalled: no more polls until asked.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('getImportJob')).toHaveLength(importPolling.maxFailures);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Completed')).toBeTruthy();
  });

  it('a job waiting for another import says so, then follows it to the end', async () => {
    let waiting = true;
    const api = adminApi({
      getImportJob: () => ({
        body: importJob(
          waiting
            ? { id: 'job-9', fileName: 'second.csv', status: 'running', phase: 'waiting' }
            : { id: 'job-9', fileName: 'second.csv', status: 'completed', rowsRead: 1, created: 1 },
        ),
      }),
    });
    renderImport(api, '/admin/product_import?job=job-9');
    expect(
      await screen.findByText('Another import is writing to the catalogue; this one starts when it ends…'),
    ).toBeTruthy();
    expect(screen.getByText('The import of second.csv waits for another import to finish.')).toBeTruthy();
    waiting = false;
    expect(await screen.findByText('Completed', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('a job that does not exist (404) is said at once, without retries', async () => {
    const api = adminApi({
      getImportJob: () => ({ status: 404, body: { message: 'There is no import with that id.' } }),
    });
    renderImport(api, '/admin/product_import?job=nope');
    expect(await screen.findByText('There is no import with that id.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('getImportJob')).toHaveLength(1);
  });
});

describe('Product Import: review list', () => {
  it('shows cards of unapproved products with the update badge, a page at a time', async () => {
    const user = userEvent.setup();
    const api = adminApi({
      getUnApprovedProducts: ({ body }) => {
        const { cursor, limit } = body as { cursor?: string; limit?: number };
        expect(limit).toBe(24);
        return cursor
          ? { body: { items: [importedProduct({ id: 'p-3', product_name: 'Lamp' })], nextCursor: null } }
          : {
              body: {
                items: [
                  importedProduct({ id: 'p-1', product_name: 'Socks', hasApprovedVersion: true }),
                  importedProduct({ id: 'p-2', product_name: 'Bottle', image: null }),
                ],
                nextCursor: 'c-2',
              },
            };
      },
    });
    renderImport(api);
    const socks = (await screen.findByText('Socks')).closest('a')!;
    expect(socks.getAttribute('href')).toBe('/admin/product_import_detail?id=p-1');
    expect(within(socks).getByText('Update to an approved product')).toBeTruthy();
    expect(within(socks).getByText('MSRP: $24.99')).toBeTruthy();
    expect(within(socks).getByText('Sell Price: $12.95')).toBeTruthy();
    expect(within(socks).queryByText(/You Make/)).toBeNull();
    const bottle = screen.getByText('Bottle').closest('a')!;
    expect(within(bottle).queryByText('Update to an approved product')).toBeNull();
    expect(within(bottle).getByTestId('image-placeholder')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Load more products' }));
    expect(await screen.findByText('Lamp')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more products' })).toBeNull();
    expect(screen.getAllByTestId('product-card')).toHaveLength(3);
  });

  it('says so when the list cannot be loaded, and Retry loads it', async () => {
    const user = userEvent.setup();
    let fail = true;
    const api = adminApi({
      getUnApprovedProducts: () =>
        fail
          ? { status: 500, body: { message: 'The server had a problem.' } }
          : { body: { items: [], nextCursor: null } },
    });
    renderImport(api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/waiting for review could not be loaded.*The server had a problem/);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByText('No products are waiting for review.')).toBeTruthy());
  });
});
