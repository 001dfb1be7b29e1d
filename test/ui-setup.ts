import { cleanup, configure } from '@testing-library/react';
import { afterAll } from 'vitest';
import { freshFile } from './fresh-file';

// findBy*/waitFor give up after 1 s by default. A lazily loaded screen can take longer than that
// to appear on a busy 2-core machine (seen while other test projects ran), which fails a test
// that is right; 5 s leaves room without hiding a screen that never appears.
configure({ asyncUtilTimeout: 5_000 });

// The UI files of a worker share one jsdom window and the packages they import (`isolate: false`
// in vitest.config.ts). Each file gets its own copy of our modules (test/fresh-file.ts), and starts,
// and leaves, the window as a fresh one would be: no rendered tree, storage or cookies, and its
// first address.
function freshWindow(): void {
  cleanup();
  freshFile();
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  document.body.innerHTML = '';
  document.title = '';
  window.history.replaceState(null, '', '/');
}
freshWindow();
afterAll(freshWindow);
