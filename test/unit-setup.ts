import { afterAll } from 'vitest';
import { freshFile } from './fresh-file';

// The unit files of a worker share it (vitest.config.ts, `isolate: false`): each starts fresh.
freshFile();
afterAll(freshFile);
