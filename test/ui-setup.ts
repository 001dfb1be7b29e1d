import { configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default. A lazily loaded screen can take longer than that
// to appear on a busy 2-core machine (seen while other test projects ran), which fails a test
// that is right; 5 s leaves room without hiding a screen that never appears.
configure({ asyncUtilTimeout: 5_000 });
