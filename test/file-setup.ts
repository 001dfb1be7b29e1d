import { afterAll } from 'vitest';
import { freshFile } from './fresh-file';

// The setup file of a project whose files share their worker (vitest.config.ts, `isolate: false`:
// the unit and the browser files): each file starts, and leaves, as in a process of its own.
freshFile();
afterAll(freshFile);
