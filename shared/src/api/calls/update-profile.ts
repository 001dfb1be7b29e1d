import type { Call } from '../call';
import { ProfileResponse, UpdateProfileRequest } from '../account';

/**
 * POST /api/updateProfile (member): Saves the caller's own names, phone, address and display name (the name customers see on a shop page); answers the profile.
 */
export const updateProfile = {
  name: 'updateProfile',
  path: '/api/updateProfile',
  role: 'member',
  body: 'json',
  request: UpdateProfileRequest,
} as const satisfies Call;

/** The answer (its own export: the function's bundle, which never reads it, leaves it out). */
export const updateProfileResponse = ProfileResponse;
