import { sendEarlyRequests } from '@portal/shared/ui/early/pageScript';
import { adminEarlyScreens } from './earlyScreens';

// The page's early script: built by the app's build into a script of its own (earlyScreens.ts).
sendEarlyRequests(adminEarlyScreens);
