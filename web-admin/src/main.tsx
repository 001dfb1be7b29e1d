import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '@portal/shared/query/client';
import { renderWhenLandingReady } from '@portal/shared/ui/hooks/preload';
import { AuthProvider, AuthStore } from '@portal/shared/ui/hooks/AuthProvider';
import { earlyApiClient } from '@portal/shared/ui/early/earlyRequests';
import { QueryProvider } from '@portal/shared/ui/hooks/QueryProvider';
import '@portal/shared/ui/styles/styles.css';
import { AdminApp } from './AdminApp';
import { startLandingData } from './landingData';
import { preloadLandingScreen } from './screens/routeScreens';

// The screen of the address opened starts loading now, before the first render asks for it.
const landingScreen = preloadLandingScreen(window.location.pathname);
// The data of the screen the address opened starts loading now, right after the session check.
// The page's early script (src/early.ts) may have sent the session check and this screen's
// first call already: the client takes their answers.
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
      <BrowserRouter basename="/admin">
        <AuthProvider store={store}>
          <QueryProvider client={queryClient}>
            <AdminApp />
          </QueryProvider>
        </AuthProvider>
      </BrowserRouter>
    </StrictMode>,
  ),
);
