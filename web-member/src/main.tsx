import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AuthProvider } from '@portal/shared/ui/AuthProvider';
import { QueryProvider } from '@portal/shared/ui/QueryProvider';
import '@portal/shared/ui/styles.css';
import { MemberApp } from './MemberApp';
import { preloadLandingScreen } from './screens/lazyScreens';

// The screen of the address opened starts loading now, before the first render asks for it.
preloadLandingScreen(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <AuthProvider>
        <QueryProvider>
          <MemberApp />
        </QueryProvider>
      </AuthProvider>
    </BrowserRouter>
  </StrictMode>,
);
