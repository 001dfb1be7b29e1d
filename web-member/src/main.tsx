import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '@portal/shared/query/client';
import { renderWhenLandingReady } from '@portal/shared/ui/hooks/preload';
import { AuthProvider, AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { QueryProvider } from '@portal/shared/ui/hooks/QueryProvider';
import '@portal/shared/ui/styles/styles.css';
import { MemberApp } from './MemberApp';
import { earlyApiClient } from '@portal/shared/ui/early/earlyRequests';
import { startLandingData } from './landingData';
import { preloadLandingScreen } from './screens/lazyScreens';

// The screen of the address opened starts loading now, before the first render asks for it,
// and so does its data (right after the session check where it needs one).
const landingScreen = preloadLandingScreen(window.location.pathname);
// The page's early script (src/early.ts) may have sent this screen's first requests:
// the client takes their answers.
const store = new AuthStore(earlyApiClient());
const queryClient = createQueryClient();
startLandingData(window.location, store, queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// The first render waits for the opened screen's chunk (3 s at most; the page shows its boot
// markup meanwhile), so that it does not suspend on it (shared/src/ui/hooks/preload.tsx).
renderWhenLandingReady(landingScreen, () =>
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <AuthProvider store={store}>
          <QueryProvider client={queryClient}>
            <MemberApp />
          </QueryProvider>
        </AuthProvider>
      </BrowserRouter>
    </StrictMode>,
  ),
);
