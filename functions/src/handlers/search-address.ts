import { searchAddress } from '@portal/shared/api/calls/search-address';
import { ADDRESS_SUGGESTIONS } from '../addresses/address-search';
import { addressSearch, apiHandler } from '../composition';

export const handler = apiHandler(searchAddress, async ({ body }) => ({
  ResultItems: await addressSearch.suggest(body.text, ADDRESS_SUGGESTIONS),
}));
