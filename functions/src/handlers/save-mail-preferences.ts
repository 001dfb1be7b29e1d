import { saveMailPreferences } from '@portal/shared/api/calls/save-mail-preferences';
import { apiHandler, users } from '../composition';
import { unauthorized } from '../errors';

/** A member turns their optional mails on or off; the answer is what is stored. */
export const handler = apiHandler(saveMailPreferences, async ({ body, user }) => {
  if (!user) throw unauthorized();
  const preferences = { saleMails: body.saleMails, payoutMails: body.payoutMails };
  await users.setMailPreferences(user.id, preferences);
  return { mailPreferences: preferences };
});
