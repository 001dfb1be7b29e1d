import { SearchAddressRequest } from '@portal/shared/api/address';
import { ADDRESS_SUGGESTIONS } from '../addresses/address-search';
import { addressSearch, apiHandler } from '../composition';

export const handler = apiHandler(
  'searchAddress',
  async ({ body }) => ({
    ResultItems: await addressSearch.suggest(body.text, ADDRESS_SUGGESTIONS),
  }),
  { request: SearchAddressRequest },
);
