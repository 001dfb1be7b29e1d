import { updateProfile as updateProfileCall } from '@portal/shared/api/calls/update-profile';
import { signedIn, updateProfile } from '../auth/account';
import { toProfile } from '../auth/user-store';
import { apiHandler, users } from '../composition';

/** The caller's own names, phone, address and display name; the answer is the profile as stored. */
export const handler = apiHandler(updateProfileCall, async ({ body, user }) => ({
  userProfile: toProfile(await updateProfile(users, signedIn(user), body)),
}));
